// What other domains may use of catalog: nothing yet. Export here whatever another domain needs.
export {};
