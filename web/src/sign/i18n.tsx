import { createContext, Fragment, useContext, useEffect, useMemo, type ReactNode } from 'react';
import {
  catalogues,
  format,
  LANGUAGES,
  textDirection,
  type Catalogue,
  type Language,
} from '../../../server/src/i18n/index.js';
import { DIRECT_LINK_WORDS, type DirectLinkWords } from './direct-link-words.js';
import { APPROVAL_WORDS, type ApprovalWords } from './approval-words.js';
import { FIELD_RULE_WORDS } from './field-rule-words.js';
import { FINISHED_WORDS, type FinishedWords } from './finished-words.js';
import type { RuleWords } from '../../../server/src/modules/fields/validation.js';

/** What the signing page says, in one language (a direct link's page too). */
export type Words = Catalogue['signing'] &
  Omit<ApprovalWords, 'replaced'> & {
    fieldTypes: Catalogue['seal']['fieldTypes'];
    directLink: DirectLinkWords;
    fieldRules: RuleWords;
    finished: FinishedWords;
  };

/** The page's language and its words. */
export type Speech = { language: Language; t: Words };

// An approver's page says the same things of approving: its words replace the signer's.
function speechFor(language: Language, approver: boolean): Speech {
  const c = catalogues[language];
  const { replaced, ...approval } = APPROVAL_WORDS[language];
  return {
    language,
    t: {
      ...c.signing,
      ...(approver ? replaced : {}),
      ...approval,
      fieldTypes: c.seal.fieldTypes,
      directLink: DIRECT_LINK_WORDS[language],
      fieldRules: FIELD_RULE_WORDS[language],
      finished: FINISHED_WORDS[language],
    },
  };
}

/**
 * The browser's preferred language among Signet's, for what is shown before the document (and
 * with it its language) is known: an invalid link, a failed load.
 */
export function browserLanguage(): Language {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split('-')[0];
    if ((LANGUAGES as readonly string[]).includes(base)) return base as Language;
  }
  return 'en';
}

/** A known language, or English. */
export function asLanguage(language: string | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(language ?? '') ? (language as Language) : 'en';
}

const SpeechContext = createContext<Speech>(speechFor('en', false));

/**
 * Speaks `language` below it, and sets `<html lang>` and `<html dir>` to it (Arabic is laid out
 * right to left: sign.css uses logical properties, so it mirrors); `approver`: of approving, not
 * signing (an approver's link).
 */
export function SpeechProvider(props: {
  language: Language;
  approver?: boolean;
  children: ReactNode;
}) {
  const approver = props.approver ?? false;
  const speech = useMemo(() => speechFor(props.language, approver), [props.language, approver]);
  useEffect(() => {
    document.documentElement.lang = props.language;
    document.documentElement.dir = textDirection(props.language);
  }, [props.language]);
  return <SpeechContext.Provider value={speech}>{props.children}</SpeechContext.Provider>;
}

/** The words of the page's language. */
export function useSpeech(): Speech {
  return useContext(SpeechContext);
}

export { format };
export type { Language };

/** Fills a message's placeholders with elements (names in bold…), keeping the words around. */
export function formatRich(message: string, values: Record<string, ReactNode>): ReactNode {
  const parts = message.split(/\{(\w+)\}/g);
  return parts.map((part, i) =>
    i % 2 === 1 ? <Fragment key={i}>{values[part] ?? `{${part}}`}</Fragment> : part,
  );
}
