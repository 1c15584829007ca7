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

/** An FTS5 phrase query matching `term` anywhere (trigram tokenizer, 3 characters or more). */
export function trigramPhrase(term: string) {
  return `"${term.replace(/"/g, '""')}"`;
}

/** Whether a trigram index can answer `term` (it needs three characters at least). */
export function trigramSearchable(term: string) {
  return [...term].length >= 3;
}
