// What other domains may use of data: nothing yet. Export here whatever another domain needs.
export {};
