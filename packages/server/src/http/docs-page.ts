/** A dependency-free API reference page that renders /openapi.json in the browser. */
export const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Vitrine API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1f2328;background:#fafafa}
header{background:#111;color:#fff;padding:20px 32px}header p{margin:4px 0 0;color:#bbb}
main{max-width:1100px;margin:0 auto;padding:24px 32px}
h2{margin:32px 0 8px;text-transform:capitalize;border-bottom:1px solid #ddd;padding-bottom:4px}
details{background:#fff;border:1px solid #e3e3e3;border-radius:6px;margin:6px 0}
summary{cursor:pointer;padding:8px 12px;display:flex;gap:12px;align-items:center}
.m{font:600 12px ui-monospace,monospace;padding:2px 8px;border-radius:4px;color:#fff;min-width:52px;text-align:center}
.GET{background:#1f7a3f}.POST{background:#1d4ed8}.PATCH{background:#a16207}.DELETE{background:#b91c1c}.PUT{background:#7c3aed}
code,pre{font:13px ui-monospace,monospace}pre{background:#f6f8fa;padding:12px;overflow:auto;margin:0 12px 12px;border-radius:4px}
.a{margin-left:auto;font-size:12px;color:#555}.d{padding:0 12px;color:#444}
input{width:100%;padding:8px;font-size:15px;border:1px solid #ccc;border-radius:6px}
</style></head><body>
<header><h1 style="margin:0">Vitrine API reference</h1><p>Generated from the server's route declarations (<a style="color:#9cf" href="/openapi.json">openapi.json</a>).</p></header>
<main><input id="q" placeholder="Filter by path or summary"><div id="out">Loading…</div></main>
<script>
fetch('/openapi.json').then(r=>r.json()).then(doc=>{
  const out=document.getElementById('out'), q=document.getElementById('q');
  const esc=s=>String(s).replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
  const ops=[];for(const [p,ms] of Object.entries(doc.paths))for(const [m,op] of Object.entries(ms))ops.push({p,m:m.toUpperCase(),op});
  const render=()=>{const f=q.value.toLowerCase();const groups={};
    for(const o of ops){if(f&&!(o.p+' '+o.op.summary).toLowerCase().includes(f))continue;(groups[o.op.tags[0]]??=[]).push(o);}
    out.innerHTML=Object.entries(groups).map(([g,list])=>'<h2>'+esc(g)+'</h2>'+list.map(o=>
      '<details><summary><span class="m '+o.m+'">'+o.m+'</span><code>'+esc(o.p)+'</code> '+esc(o.op.summary)+'<span class="a">'+esc(o.op['x-access'])+'</span></summary>'+
      '<p class="d">'+esc(o.op.description)+'</p><pre>'+esc(JSON.stringify(o.op.requestBody?.content['application/json'].schema??o.op['x-payload'],null,2))+'</pre></details>').join('')).join('')||'No match';};
  q.oninput=render;render();
});
</script></body></html>`;
