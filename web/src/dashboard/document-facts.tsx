import type { DocumentDetail } from '../../../server/src/api-types.js';
import { DocumentExpiry } from './document-expiry.js';
import { DocumentReferences } from './document-references.js';
import { DocumentReminders } from './document-reminders.js';
import { FolderSelect, folderPath } from './folders.js';
import type { AuditEntry, Folder, SignetDocument } from './types.js';
import { StatusBadge, Time } from './ui.js';

/**
 * The facts at the top of a document's page: status (an expiry named as such), times, folder
 * and pin (changed through `organise`), the deadline and the automatic reminders (editable while
 * open; `entries`, the audit trail, tells a draft's reminders turned off), seal level, hash and
 * what an integrator attached.
 */
export function DocumentFacts(props: {
  document: SignetDocument;
  folders: Folder[];
  busy: boolean;
  organise: (json: { pinned?: boolean; folderId?: string | null }, done: string) => void;
  onChanged: (detail: DocumentDetail) => void;
  entries: AuditEntry[] | null;
}) {
  const { document: doc } = props;
  return (
    <dl className="facts">
      <div>
        <dt>Status</dt>
        <dd>
          {doc.cancelReason === 'expired' ? (
            // The reason is part of the status here: an expiry is not the sender's cancel.
            <span className="badge badge-cancelled">Cancelled: expired</span>
          ) : (
            <StatusBadge status={doc.status} />
          )}
        </dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>
          <Time value={doc.createdAt} />
        </dd>
      </div>
      {/* Only while there is anyone to remind: "now" on a finished document misleads. */}
      {doc.status === 'in_process' && (
        <div>
          <dt>Reminders possible</dt>
          <dd>
            {doc.reminderCooldownUntil ? (
              <>
                after <Time value={doc.reminderCooldownUntil} />
              </>
            ) : (
              'now'
            )}
          </dd>
        </div>
      )}
      <div>
        <dt>Folder</dt>
        <dd>
          <FolderSelect
            label="Folder"
            folders={props.folders}
            value={doc.folderId}
            disabled={props.busy}
            onChange={(folderId) =>
              void props.organise(
                { folderId },
                folderId
                  ? `Moved to ${folderPath(props.folders, folderId)}.`
                  : 'Taken out of its folder.',
              )
            }
          />
        </dd>
      </div>
      <div>
        <dt>Pinned</dt>
        <dd>
          <button
            type="button"
            className="button secondary small"
            disabled={props.busy}
            onClick={() =>
              void props.organise({ pinned: !doc.pinned }, doc.pinned ? 'Unpinned.' : 'Pinned.')
            }
          >
            {doc.pinned ? 'Unpin' : 'Pin'}
          </button>
        </dd>
      </div>
      <DocumentExpiry document={doc} onChanged={props.onChanged} />
      <DocumentReminders document={doc} entries={props.entries} onChanged={props.onChanged} />
      {doc.sealLevel && (
        <div>
          <dt>Seal level</dt>
          <dd>PAdES {doc.sealLevel}</dd>
        </div>
      )}
      {doc.hash && (
        <div className="wide">
          <dt>SHA-256</dt>
          <dd className="mono break">{doc.hash}</dd>
        </div>
      )}
      <DocumentReferences document={doc} />
    </dl>
  );
}
