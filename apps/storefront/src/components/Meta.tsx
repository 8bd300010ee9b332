import { useSite, STORE_NAME } from '../site';

export interface MetaProps {
  title: string;
  /** The title is the whole page title as written (an owner's SEO title): no store name is added. */
  exactTitle?: boolean;
  description: string;
  /** Path (and query) of the canonical URL, e.g. `/product-page/ceramic-mug`. */
  path: string;
  image?: string;
  type?: 'website' | 'product';
  /** Pages that must stay out of search results (404, cart, account). */
  noindex?: boolean;
}

/**
 * Per-page head tags. React 19 hoists <title>, <meta> and <link> into <head> on the server and
 * in the browser, so each page states its own and client navigation replaces them.
 */
export function Meta({ title, exactTitle, description, path, image, type = 'website', noindex }: MetaProps) {
  const { origin } = useSite();
  const full = exactTitle || title === STORE_NAME ? title : `${title} | ${STORE_NAME}`;
  const url = origin + path;
  return (
    <>
      <title>{full}</title>
      <meta name="description" content={description} />
      {noindex ? <meta name="robots" content="noindex" /> : <link rel="canonical" href={url} />}
      <meta property="og:site_name" content={STORE_NAME} />
      <meta property="og:title" content={full} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:type" content={type} />
      {image && <meta property="og:image" content={image} />}
    </>
  );
}

/** Structured data as an inline JSON-LD script (`<` escaped so text cannot end the element). */
export function JsonLd({ data }: { data: object }) {
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, '\\u003c') }} />;
}
