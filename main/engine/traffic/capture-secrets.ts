/**
 * Secrets are masked before an exchange reaches the traffic log (docs/contract/console.md §9), in
 * two passes over each part of the entry:
 * - by name: credentials in headers, secret fields of JSON and form bodies, secret query
 *   parameters of the URL and of Location headers (`redact.ts` says which). What is masked this
 *   way is learned as a known secret (`security/known-secrets.ts`);
 * - by value: every known secret, wherever else it stands (a HAR's header `value`, a curl line in
 *   a JSON string, a header of any name, a path).
 * The text is stored as it came but for the masked values (a JSON body is not written anew), and
 * what was masked is handed to the log to hold in memory only (`log/held.ts`), so that "reveal"
 * works while the console runs.
 */
import type { HeaderBlock, HeldParts, NewTrafficEntry } from './log/index.js';
import { isSecretField, mask, maskField, SECRET_FIELD_TEXT } from '../api/redact.js';
import { KnownSecrets } from '../security/known-secrets.js';
import { headerStretchesByName, maskHeaderBlock, type HeaderStretch, type MaskedBlock } from './header-secrets.js';
import { applyStretches, learn, pairStretches, urlStretches, type Masked, type Stretch } from './text-stretches.js';
import { BlockMemo } from './block-memo.js';
import { CleanBodies } from './clean-bodies.js';

export { maskHeaderBlock } from './header-secrets.js';

/**
 * The stretches found by name, then every known secret outside them, in order. What was found by
 * name is learned first, so a secret is found by value in the same text too.
 */
function withKnown(
  text: string,
  byName: Stretch[],
  known: KnownSecrets | undefined,
  masked: (secret: string) => string = mask,
  learned = false,
): Stretch[] {
  if (!known) return byName;
  if (!learned) learn(known, text, byName);
  const byValue = known.find(text);
  if (byValue.length === 0) return byName;
  const all: Stretch[] = [...byName];
  for (const { start, end } of byValue)
    if (!byName.some((taken) => start < taken.end && end > taken.start))
      all.push({ start, end, masked: masked(text.slice(start, end)) });
  return all.sort((a, b) => a.start - b.start);
}

/** A URL with its secret query parameters masked (the fragment is left alone), known secrets anywhere in it; null when it has none. */
export function maskUrl(
  url: string,
  known?: KnownSecrets,
  byName: Stretch[] = urlStretches(url),
  learned = false,
): Masked {
  return applyStretches(url, withKnown(url, byName, known, maskQueryValue, learned));
}

const maskQueryValue = (secret: string) => encodeURIComponent(mask(secret));

/** A text with the known secrets in it masked, read by value only (a summary's path); null when it holds none. */
function maskKnown(text: string, known: KnownSecrets | undefined): Masked {
  return applyStretches(text, withKnown(text, [], known, mask, true));
}

/** A JSON string's text (escapes and all) masked: still a valid JSON string when it was one. */
function maskJsonString(name: string, raw: string): string {
  try {
    return JSON.stringify(maskField(name, JSON.parse(`"${raw}"`) as string)).slice(1, -1);
  } catch {
    // Cut inside the value: no escape is left open before the mask.
    return maskField(name, raw).replace(/\\(?:u[0-9a-fA-F]{0,3})?(?=•••$)/, '');
  }
}

function bodyStretches(body: string): Stretch[] {
  const first = /\S/.exec(body)?.[0];
  const found: Stretch[] = [];
  if (first === '{' || first === '[') {
    SECRET_FIELD_TEXT.lastIndex = 0;
    for (let match = SECRET_FIELD_TEXT.exec(body); match !== null; match = SECRET_FIELD_TEXT.exec(body)) {
      const [, opening, name, value] = match as unknown as [string, string, string, string];
      if (!isSecretField(name, value)) continue;
      const start = match.index + opening.length;
      found.push({ start, end: start + value.length, masked: maskJsonString(name, value) });
    }
  } else if (/^\s*[\w.%-]+=/.test(body)) {
    pairStretches(body, 0, body.length, found);
  }
  return found;
}

/** A body with its secrets masked: the secret fields of JSON at any depth (a cut body too), or those of a form, and known secrets anywhere; null when it has none. */
export function maskBody(
  body: string,
  known?: KnownSecrets,
  byName: Stretch[] = bodyStretches(body),
  learned = false,
): Masked {
  return applyStretches(body, withKnown(body, byName, known, mask, learned));
}

/**
 * Header blocks whose masking is remembered, up to a size each: a block of a few hundred
 * characters is found (`block-memo.ts`) in less time than it takes to read it for secrets, and most
 * blocks come again (a player's request headers with its bearer token, a server's response
 * headers within the second of their Date). A fleet's request blocks never do (each has its own
 * X-Request-Id): for those the line-by-line pass (`header-secrets.ts`) is what they cost, and
 * taking the memory out made the blocks that do come again cost twice as much. The whole memory
 * is let go when a new secret is known. What it holds is shared by the entries that sent the
 * block: nothing changes it once made.
 */
const MASKED_BLOCKS = 1_024;
const MASKED_BLOCK_CHARS = 2_048;

/** Values `learn` remembers taking (a fleet's tokens), at most: past it, it starts again. */
const TAKEN_VALUES = 16_384;

/** One recorder's masking: the secrets it knows, and the bodies it found clean lately. */
export class CaptureMasker {
  /** Bodies found clean lately (`clean-bodies.ts`). */
  private readonly cleanBodies = new CleanBodies();
  /**
   * Header blocks masked lately, and what masking made of them, for the secrets known at
   * `rememberedAt`: requests' in slots alone (see `BlockMemo`), answers' with a Map behind.
   */
  private readonly requestBlocks = new BlockMemo<MaskedBlock | null>(MASKED_BLOCKS, MASKED_BLOCK_CHARS, false);
  private readonly responseBlocks = new BlockMemo<MaskedBlock | null>(MASKED_BLOCKS, MASKED_BLOCK_CHARS);
  /**
   * URLs masked lately, the same way: a player asks for the same window, polls the same version
   * and reports to the same path again and again, and reading a URL for secrets by name and by
   * value cost more than the rest of masking an entry whose blocks are held.
   */
  private readonly urls = new BlockMemo<Masked>(MASKED_BLOCKS, MASKED_BLOCK_CHARS);
  private rememberedAt = -1;
  /**
   * For a request block held in `requestBlocks`, the held parts of an entry that holds nothing else (a
   * player's request with its bearer token, nearly every entry): one object shared by all those
   * entries, not one each. The log holds them for its newest entries, long enough for the
   * collector to move each to the old generation (see `log/held.ts`). Let go with the blocks, or
   * when it holds as many as they have slots (a block that lost its slot leaves its parts here).
   */
  private readonly heldAlone = new Map<MaskedBlock, HeldParts>();

  /** Values learned since the last new secret: a player's token, request after request, is not taken again. */
  private readonly taken = new Set<string>();
  private takenAt = -1;

  constructor(readonly known: KnownSecrets = new KnownSecrets()) {}

  /**
   * Holds what was found by name as known secrets. A value taken since the last new secret is
   * held already and changes nothing (`KnownSecrets.add` would cut it into runs and move each to
   * the newest end again); once a new secret is known, the next sighting of each value moves it
   * again, so a token in use still goes after every secret learned before its last use.
   */
  private learn(text: string | null, stretches: readonly Stretch[] | null): void {
    if (text === null || stretches === null) return;
    const { known, taken } = this;
    for (let i = 0; i < stretches.length; i++) {
      const value = text.slice(stretches[i]!.start, stretches[i]!.end);
      if (this.takenAt === known.version && taken.has(value)) continue;
      known.add(value);
      if (this.takenAt !== known.version || taken.size >= TAKEN_VALUES) {
        taken.clear();
        this.takenAt = known.version;
      }
      taken.add(value);
    }
  }

  private body(body: string, byName: Stretch[] | null): Masked {
    if (byName === null) return null;
    const masked = maskBody(body, this.known, byName, true);
    if (masked === null) this.cleanBodies.remember(body, this.known.version);
    return masked;
  }

  /**
   * What masking made of a URL or a header block lately (null: nothing to mask), with the secrets
   * known now; undefined when it is not held. A player sends the same headers with every request
   * (its bearer token among them) to the same few URLs: found here, they are not read again.
   */
  private remembered<Value>(memo: BlockMemo<Value>, text: string): Value | undefined {
    if (this.rememberedAt !== this.known.version) return undefined;
    return memo.get(text);
  }

  /** What masking made of `text`, held in `memo` for the secrets known now. */
  private keep<Value>(memo: BlockMemo<Value>, text: string, masked: Value): Value {
    this.forgetIfStale();
    memo.set(text, masked);
    return masked;
  }

  /** Lets go of what was masked with fewer secrets known than now: it may hold a secret learned since. */
  private forgetIfStale(): void {
    if (this.rememberedAt === this.known.version) return;
    this.requestBlocks.clear();
    this.responseBlocks.clear();
    this.urls.clear();
    this.heldAlone.clear();
    this.rememberedAt = this.known.version;
  }

  /**
   * Masks the entry's secrets in place; what was masked goes to `held` (for the log to hold in
   * memory), and `masked` notes that the stored entry carries masks. The parts are read by name
   * first, all of them, so a secret learned in one part (a token response's body) is masked by
   * value in another (its own request's URL) of the same entry. What is found by name is learned
   * once, there. No closures: this runs on every exchange.
   */
  mask(entry: NewTrafficEntry): void {
    const { known } = this;
    const version = known.version;
    // URLs and header blocks masked lately need no reading by name: they teach nothing new.
    let url = this.remembered(this.urls, entry.url);
    let requestHeaders = this.remembered(this.requestBlocks, entry.requestHeaders);
    let responseHeaders = this.remembered(this.responseBlocks, entry.responseHeaders);
    // By name first, every part, learning what it finds.
    let urlByName = url === undefined ? this.urlByName(entry.url) : null;
    let requestHeadersByName = requestHeaders === undefined ? this.headersByName(entry.requestHeaders) : null;
    let responseHeadersByName = responseHeaders === undefined ? this.headersByName(entry.responseHeaders) : null;
    // A body found clean lately (null here) has nothing to learn or mask: the common case, cached
    // answers. Asked again if this entry taught a new secret: the body may hold it.
    let requestBodyByName = this.bodyByName(entry.requestBody);
    let responseBodyByName = this.bodyByName(entry.responseBody);
    this.learn(entry.requestBody, requestBodyByName);
    this.learn(entry.responseBody, responseBodyByName);
    if (known.version !== version) {
      requestBodyByName ??= this.bodyByName(entry.requestBody);
      responseBodyByName ??= this.bodyByName(entry.responseBody);
      // A URL or a block masked lately may hold the new secret too: it is read again.
      if (url !== undefined) {
        url = undefined;
        urlByName = this.urlByName(entry.url);
      }
      if (requestHeaders !== undefined) {
        requestHeaders = undefined;
        requestHeadersByName = this.headersByName(entry.requestHeaders);
      }
      if (responseHeaders !== undefined) {
        responseHeaders = undefined;
        responseHeadersByName = this.headersByName(entry.responseHeaders);
      }
    }

    // Then by value too.
    let held: HeldParts | null = null;
    // A request block found masked lately came before: its entries share one held object (see
    // `heldAlone`). One masked now may never come again (a fleet's, each with its own id).
    const requestBlockFound = requestHeaders !== undefined;
    if (url === undefined) url = this.keep(this.urls, entry.url, maskUrl(entry.url, known, urlByName!, true));
    if (url) {
      entry.url = url.text;
      (held ??= {}).url = url.splices;
      // The summary's path is the URL's too (a token sent as a path segment): masked with it, by
      // value. Only here, where the URL held a secret: a clean URL's path holds none.
      const path = maskKnown(entry.path, known);
      if (path) entry.path = path.text;
    }
    if (requestHeaders === undefined)
      requestHeaders = this.keep(
        this.requestBlocks,
        entry.requestHeaders,
        maskHeaderBlock(entry.requestHeaders, known, requestHeadersByName!, true),
      );
    if (requestHeaders) {
      entry.requestHeaders = requestHeaders.block;
      (held ??= {}).requestHeaders = requestHeaders.held;
    }
    const requestBody = entry.requestBody === null ? null : this.body(entry.requestBody, requestBodyByName);
    if (requestBody) {
      entry.requestBody = requestBody.text;
      (held ??= {}).requestBody = requestBody.splices;
    }
    if (responseHeaders === undefined)
      responseHeaders = this.keep(
        this.responseBlocks,
        entry.responseHeaders,
        maskHeaderBlock(entry.responseHeaders, known, responseHeadersByName!, true),
      );
    if (responseHeaders) {
      entry.responseHeaders = responseHeaders.block;
      (held ??= {}).responseHeaders = responseHeaders.held;
    }
    const responseBody = entry.responseBody === null ? null : this.body(entry.responseBody, responseBodyByName);
    if (responseBody) {
      entry.responseBody = responseBody.text;
      (held ??= {}).responseBody = responseBody.splices;
    }
    if (held) {
      entry.masked = true;
      entry.held =
        requestHeaders && requestBlockFound && onlyRequestHeaders(held) ? this.sharedHeld(requestHeaders) : held;
    }
  }

  /** The one held-parts object of the entries whose only masked part is this request block. */
  private sharedHeld(requestHeaders: MaskedBlock): HeldParts {
    let parts = this.heldAlone.get(requestHeaders);
    if (!parts) {
      if (this.heldAlone.size >= MASKED_BLOCKS) this.heldAlone.clear();
      this.heldAlone.set(requestHeaders, (parts = { requestHeaders: requestHeaders.held }));
    }
    return parts;
  }

  /** A URL's secret query parameters, found by name and learned. */
  private urlByName(url: string): Stretch[] {
    const byName = urlStretches(url);
    this.learn(url, byName);
    return byName;
  }

  /** A header block's credential lines, found by name and learned. */
  private headersByName(block: HeaderBlock): HeaderStretch[] {
    const byName = headerStretchesByName(block);
    this.learn(block, byName);
    return byName;
  }

  private bodyByName(body: string | null): Stretch[] | null {
    return body === null || this.cleanBodies.has(body, this.known.version) ? null : bodyStretches(body);
  }
}

function onlyRequestHeaders(held: HeldParts): boolean {
  return (
    held.url === undefined &&
    held.requestBody === undefined &&
    held.responseHeaders === undefined &&
    held.responseBody === undefined
  );
}

/** Masks one entry by name, and by value with `known` when given (tests; capture keeps a `CaptureMasker`). */
export function maskEntry(entry: NewTrafficEntry, known?: KnownSecrets): void {
  new CaptureMasker(known).mask(entry);
}
