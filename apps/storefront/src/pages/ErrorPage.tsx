import { STORE_NAME } from '../site';

/** A failed load (the API is down, a bug): a whole document, since the layout itself may have failed. */
export function ErrorPage({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'Something went wrong';
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`Something went wrong | ${STORE_NAME}`}</title>
      </head>
      <body style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
        <h1>Something went wrong</h1>
        <p role="alert">{message}</p>
        <p><a href="/">Back to the shop</a></p>
      </body>
    </html>
  );
}
