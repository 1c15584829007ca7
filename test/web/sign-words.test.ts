import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../server/src/i18n/index.js';
import { catalogueProblems } from '../../server/src/i18n/catalogue-problems.js';
import { APPROVAL_WORDS } from '../../web/src/sign/approval-words.js';
import { AUTH_WORDS } from '../../web/src/sign/auth-words.js';
import { DIRECT_LINK_WORDS } from '../../web/src/sign/direct-link-words.js';
import { RETURNING } from '../../web/src/sign/redirect-notice.js';

// The signing page's own words (beside the server's catalogues): every language has every
// English key, no other, none empty, with English's placeholders.
const TABLES = {
  approval: APPROVAL_WORDS,
  auth: AUTH_WORDS,
  directLink: DIRECT_LINK_WORDS,
  returning: RETURNING,
} as const;

describe('the signing page words of every language', () => {
  for (const [name, table] of Object.entries(TABLES)) {
    it.each(LANGUAGES.filter((l) => l !== 'en'))(`${name} in %s follows English`, (language) => {
      expect(Object.keys(table).sort()).toEqual([...LANGUAGES].sort());
      expect(catalogueProblems(table.en, table[language])).toEqual([]);
    });
  }

  it('writes Arabic and Japanese in their own scripts', () => {
    expect(APPROVAL_WORDS.ar.approve).toMatch(/\p{Script=Arabic}/u);
    expect(AUTH_WORDS.ja.open).toMatch(/\p{Script=Han}|\p{Script=Hiragana}/u);
    expect(DIRECT_LINK_WORDS.ko.continue).toMatch(/\p{Script=Hangul}/u);
    expect(RETURNING.zh).toMatch(/\p{Script=Han}/u);
  });
});
