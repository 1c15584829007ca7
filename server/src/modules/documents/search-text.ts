import { createHash } from 'node:crypto';

/**
 * What the listing's `q` searches: a document's name and each signee's name and e-mail, one per
 * line, folded (Unicode lower case in composed form, in JavaScript, so the same on both engines,
 * whose own lower() differ).
 * Kept in `documents.search_text` whenever one of them changes.
 */
export function searchTextOf(name: string, signees: Array<{ name: string; email: string }>) {
  return fold([name, ...signees.flatMap((s) => [s.name, s.email])].join('\n'));
}

/** The `q` of a listing as it is compared with search texts: trimmed, folded alike. */
export function searchTerm(q: string) {
  return fold(q.trim());
}

// Lower-cased in composed form (NFC), so "é" typed as e + accent matches "é"; Greek final
// sigma as sigma, since where a word ends in the query says nothing of the text.
function fold(text: string) {
  return text.normalize('NFC').toLowerCase().replace(/ς/g, 'σ');
}

/** A LIKE pattern matching `term` anywhere, its wildcards escaped with `\`. */
export function containsPattern(term: string) {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Whether a trigram index can answer `term` (it needs three characters at least). */
export function trigramSearchable(term: string) {
  return [...term].length >= 3;
}

/** The code-point trigrams of a text, in order, repeats kept. */
function trigramsOf(text: string) {
  const chars = [...text];
  const trigrams: string[] = [];
  for (let i = 0; i + 3 <= chars.length; i++) trigrams.push(chars.slice(i, i + 3).join(''));
  return trigrams;
}

/**
 * The keys PostgreSQL's search index holds for a term in a tenant: each trigram of the term
 * (by code point, like the database's substr) prefixed with the tenant id, as
 * `documents_search_keys` (migration 0017) makes them from a document's search text.
 */
export function tenantTrigrams(tenantId: string, term: string) {
  return [...new Set(trigramsOf(term).map((t) => tenantId + t))];
}

// A token of SQLite's search index (migration 0017): the tenant's 64-bit tag, then the trigram
// as hex UTF-8, so one tenant's tokens never equal another's and plain ASCII tokenizes whole.
function tenantTag(tenantId: string) {
  return `t${createHash('sha256').update(tenantId).digest('hex').slice(0, 16)}`;
}

function trigramTokens(tenantId: string, text: string) {
  const tag = tenantTag(tenantId);
  return trigramsOf(text).map((t) => tag + Buffer.from(t).toString('hex'));
}

/**
 * What SQLite's search index holds for a document: its search text's trigrams, in order, each
 * as a token of its tenant, so a search reads its own tenant's entries only.
 */
export function tenantSearchTokens(tenantId: string, searchText: string) {
  return trigramTokens(tenantId, searchText).join(' ');
}

/** An FTS5 phrase query for `term` in a tenant's tokens (three characters or more). */
export function tenantTrigramPhrase(tenantId: string, term: string) {
  return `"${trigramTokens(tenantId, term).join(' ')}"`;
}
