/**
 * Query and form parameters exactly as received: every value of every name, so that a repeated
 * parameter is seen (RFC 6749 §3.1, §3.2: parameters MUST NOT be included more than once) rather
 * than silently merged or turned into an array. And the one way parameters are added to a
 * redirect URI: its own query kept byte for byte.
 */
export class Params {
  private constructor(readonly entries: readonly (readonly [string, string])[]) {}

  /** Parses `a=1&b=2` (application/x-www-form-urlencoded); never throws. */
  static parse(encoded: string): Params {
    return new Params([...new URLSearchParams(encoded)]);
  }

  /** The query of a request target such as `/login/v3/oauth?client_id=…`. */
  static fromUrl(url: string): Params {
    const query = url.indexOf('?');
    return Params.parse(query === -1 ? '' : url.slice(query + 1));
  }

  static empty(): Params {
    return new Params([]);
  }

  all(name: string): string[] {
    return this.entries.filter(([key]) => key === name).map(([, value]) => value);
  }

  /** The value of a parameter sent once; undefined when absent, empty or repeated. */
  single(name: string): string | undefined {
    const values = this.all(name);
    return values.length === 1 && values[0] !== '' ? values[0] : undefined;
  }

  has(name: string): boolean {
    return this.entries.some(([key]) => key === name);
  }

  isRepeated(name: string): boolean {
    return this.all(name).length > 1;
  }

  /** Names sent more than once. */
  repeated(): string[] {
    const seen = new Set<string>();
    const repeated = new Set<string>();
    for (const [key] of this.entries) {
      if (seen.has(key)) repeated.add(key);
      seen.add(key);
    }
    return [...repeated];
  }

  /** Every parameter with its values, with values of `secret` names replaced by `hide(value)`. */
  toRecord(
    secret: readonly string[] | ((name: string) => boolean) = [],
    hide: (value: string) => string = () => '•••',
  ): Record<string, string[]> {
    const isSecret = typeof secret === 'function' ? secret : (name: string) => secret.includes(name);
    // A Map, then own properties: a name like `constructor` or `__proto__` is a parameter like
    // any other, not something every object already has (`{}.constructor.push` was a 500).
    const record = new Map<string, string[]>();
    for (const [key, value] of this.entries) {
      const values = record.get(key) ?? [];
      values.push(isSecret(key) ? hide(value) : clip(value));
      record.set(key, values);
    }
    return Object.fromEntries(record);
  }
}

/** Inspector records stay small whatever a client sends. */
export function clip(value: string, max = 512): string {
  return value.length > max ? `${value.slice(0, max)}… (${value.length} chars)` : value;
}

/**
 * `redirectUri` with `params` appended to its query, leaving the URI's own query byte for byte
 * as registered (re-serialising it through URL would re-encode it).
 */
export function withQuery(redirectUri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.append(key, value);
  const added = query.toString();
  if (!redirectUri.includes('?')) return `${redirectUri}?${added}`;
  if (redirectUri.endsWith('?') || redirectUri.endsWith('&')) return `${redirectUri}${added}`;
  return `${redirectUri}&${added}`;
}
