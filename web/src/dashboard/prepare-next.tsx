import { AskFirstButton } from './ask-first.js';
import { withoutSignatureField, type DraftField, type Participant } from './prepare-fields.js';
import { navigate } from './router.js';

/** Where the editor's "next" button goes in a guided flow, and what it says. */
export type NextStep = { label: string; to: string };

/** Names as a sentence: "Ann", "Ann and Ben", "Ann, Ben and Cleo". */
export function nameList(names: string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The question to ask before going on when signers have no signature field (null when all
 * have one): with no fields at all they sign on a page added at the end; with some, sending is
 * refused until each has one.
 */
export function unsignedQuestion(names: string[], fieldCount: number, goOn: string): string | null {
  if (names.length === 0) return null;
  const who = nameList(names);
  const one = names.length === 1;
  return fieldCount === 0
    ? `No fields are placed: ${who} will sign on a page added at the end. ${goOn}`
    : `${who} ${one ? 'has' : 'have'} no signature field, and sending is refused until ${one ? 'they have' : 'each has'} one. ${goOn}`;
}

/**
 * The editor's way on in the guided flow: saves unsaved fields first, then goes to the next
 * step. A signer without a signature field is named (with no fields at all, everyone signs on a
 * page added at the end) and going on asks first.
 */
export function PrepareNext(props: {
  next: NextStep;
  fields: DraftField[];
  participants: Participant[];
  /** The editor's state: unsaved changes, a save under way, and the save itself. */
  editor: { dirty: boolean; saving: boolean; save: () => Promise<boolean> };
}) {
  const { fields, editor } = props;
  const unsigned = withoutSignatureField(
    fields.map((f) => ({ owner: f.participantId, type: f.type })),
    props.participants,
  ).map((p) => p.name);
  const warn = fields.length === 0 && unsigned.length > 0;
  return (
    <div className="prepare-next">
      {warn && (
        <p className="warning-text" id="prepare-next-warning">
          No signature field yet for {nameList(unsigned)}.
        </p>
      )}
      <AskFirstButton
        label={props.next.label}
        className="button primary"
        disabled={editor.saving}
        describedBy={warn ? 'prepare-next-warning' : undefined}
        question={unsignedQuestion(unsigned, fields.length, 'Continue anyway?')}
        goLabel="Continue anyway"
        stayLabel="Stay and add fields"
        before={async () => !editor.dirty || (await editor.save())}
        onGo={() => navigate(props.next.to)}
      />
    </div>
  );
}
