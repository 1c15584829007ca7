import { useEffect, useRef } from 'react';
import type { CannotSignReason } from './signing-api.js';
import { format, useSpeech, type Words } from './i18n.js';

/** What the signee just did on this page, if anything. */
export type Finished = 'signed' | 'declined';

type Copy = { title: string; body: string; tone: 'success' | 'info' | 'warning' };

function copyFor(
  t: Words,
  reason: CannotSignReason | null,
  finished: Finished | null,
  documentName: string,
  senderName: string,
): Copy {
  const values = { document: documentName, sender: senderName };
  if (finished === 'signed')
    return { tone: 'success', title: format(t.signedTitle, values), body: t.signedBody };
  if (finished === 'declined')
    return {
      tone: 'warning',
      title: format(t.declinedTitle, values),
      body: format(t.declinedBody, values),
    };
  switch (reason) {
    case 'not_your_turn':
      return { tone: 'info', title: t.notYourTurnTitle, body: t.notYourTurnBody };
    case 'signed':
      return { tone: 'success', title: t.alreadySignedTitle, body: t.alreadySignedBody };
    case 'group_signed':
      return { tone: 'success', title: t.groupSignedTitle, body: t.groupSignedBody };
    case 'declined':
      return { tone: 'warning', title: t.alreadyDeclinedTitle, body: t.alreadyDeclinedBody };
    default:
      return {
        tone: 'info',
        title: t.cannotSignTitle,
        body: format(t.cannotSignBody, values),
      };
  }
}

/** Replaces the signing controls when the signee cannot (or no longer needs to) sign. */
export function StatusPanel(props: {
  headingId: string;
  documentName: string;
  senderName: string;
  reason: CannotSignReason | null;
  finished: Finished | null;
}) {
  const { headingId, documentName, senderName, reason, finished } = props;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { t } = useSpeech();
  const copy = copyFor(t, reason, finished, documentName, senderName);

  useEffect(() => {
    // After signing or declining, the controls the focus was on are gone: say what happened.
    if (finished) headingRef.current?.focus();
  }, [finished]);

  return (
    <div className={`status status-${copy.tone}`} role="status">
      <h2 id={headingId} ref={headingRef} tabIndex={-1} className="panel-heading">
        {copy.title}
      </h2>
      <p>{copy.body}</p>
    </div>
  );
}
