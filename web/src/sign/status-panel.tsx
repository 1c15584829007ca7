import { useEffect, useRef } from 'react';
import type { CannotSignReason } from './signing-api.js';

/** What the signee just did on this page, if anything. */
export type Finished = 'signed' | 'declined';

type Copy = { title: string; body: string; tone: 'success' | 'info' | 'warning' };

function copyFor(
  reason: CannotSignReason | null,
  finished: Finished | null,
  documentName: string,
  senderName: string,
): Copy {
  if (finished === 'signed')
    return {
      tone: 'success',
      title: `You have signed “${documentName}”`,
      body: 'Thank you. There is nothing else you need to do, and you can close this page.',
    };
  if (finished === 'declined')
    return {
      tone: 'warning',
      title: `You declined to sign “${documentName}”`,
      body: `Your reason has been recorded for ${senderName}. You can close this page.`,
    };
  switch (reason) {
    case 'not_your_turn':
      return {
        tone: 'info',
        title: 'It is not your turn to sign yet',
        body: 'Someone else needs to sign before you. You will get an e-mail when it is your turn; you can read the document in the meantime.',
      };
    case 'signed':
      return {
        tone: 'success',
        title: 'You have signed this document',
        body: 'There is nothing else you need to do.',
      };
    case 'group_signed':
      return {
        tone: 'success',
        title: 'Your signing group has already signed',
        body: 'Someone else in your group signed this document, so nothing more is needed from you.',
      };
    case 'declined':
      return {
        tone: 'warning',
        title: 'You declined to sign this document',
        body: 'There is nothing else you need to do.',
      };
    default:
      return {
        tone: 'info',
        title: 'This document cannot be signed right now',
        body: `Contact ${senderName} if you think this is a mistake.`,
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
  const copy = copyFor(reason, finished, documentName, senderName);

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
