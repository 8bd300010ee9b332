/** What `createClient` hands a strategy: the server origin and the fetch to use for its own calls. */
export interface AuthEnvironment {
  host: string;
  fetch: typeof fetch;
}

/** An auth strategy produces the headers of every call. */
export interface AuthStrategy {
  getAuthHeaders(): Promise<{ headers: Record<string, string> }>;
  /** True for strategies acting as the site owner (API keys); `elevate()` requires one. */
  readonly elevated: boolean;
  /**
   * Called by `createClient` with its host and fetch. Strategies that call the server themselves
   * (OAuth token requests) use them; the first client attached wins unless the strategy was given its own.
   */
  attach?(env: AuthEnvironment): void;
}
