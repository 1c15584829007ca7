import { useState, type DragEvent, type FormEvent, type ReactNode } from 'react';
import { call } from './dashboard-api.js';
import { fieldError } from './api.js';
import type { Folder } from './types.js';
import { ConfirmButton, ErrorMessage, TextField } from './ui.js';
import { useSubmit } from './use-submit.js';

/** The drag payload of a document row, dropped on a folder to file it there. */
/** Every folder of a tenant (the panel shows the whole tree): the listing's pages in turn. */
export async function loadAllFolders(tenantId: string): Promise<Folder[]> {
  const folders: Folder[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '1000' });
    if (cursor) query.set('cursor', cursor);
    const page = await call('GET /api/tenants/{tenantId}/folders', { params: { tenantId }, query });
    folders.push(...page.folders);
    cursor = page.nextCursor;
  } while (cursor);
  return folders;
}

export const DOCUMENT_DRAG_TYPE = 'application/x-signet-document';

/** Folders in tree order, each with its depth (0 at the top). */
export function folderTree(folders: Folder[]): Array<{ folder: Folder; depth: number }> {
  const out: Array<{ folder: Folder; depth: number }> = [];
  const walk = (parentId: string | null, depth: number) => {
    for (const folder of folders.filter((f) => f.parentId === parentId)) {
      out.push({ folder, depth });
      walk(folder.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** A folder's name with the folders above it: "Clients / Acme". */
export function folderPath(folders: Folder[], id: string | null): string {
  const names: string[] = [];
  let current = folders.find((f) => f.id === id);
  while (current && names.length < 32) {
    names.unshift(current.name);
    const parentId: string | null = current.parentId;
    current = folders.find((f) => f.id === parentId);
  }
  return names.join(' / ');
}

/** A select of every folder (indented by depth) and "No folder". */
export function FolderSelect(props: {
  label: string;
  folders: Folder[];
  value: string | null;
  onChange: (folderId: string | null) => void;
  /** Folders that may not be chosen (a folder and those inside it, when moving it). */
  exclude?: Set<string>;
  noneLabel?: string;
  className?: string;
  disabled?: boolean;
}) {
  return (
    <select
      aria-label={props.label}
      className={`text-input compact ${props.className ?? ''}`}
      value={props.value ?? ''}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value || null)}
    >
      <option value="">{props.noneLabel ?? 'No folder'}</option>
      {folderTree(props.folders)
        .filter(({ folder }) => !props.exclude?.has(folder.id))
        .map(({ folder, depth }) => (
          <option key={folder.id} value={folder.id}>
            {`${'\u00a0\u00a0'.repeat(depth)}${folder.name}`}
          </option>
        ))}
    </select>
  );
}

// A folder and every folder inside it.
function subtree(folders: Folder[], id: string): Set<string> {
  const ids = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const f of folders) {
      if (f.parentId && ids.has(f.parentId) && !ids.has(f.id)) {
        ids.add(f.id);
        grew = true;
      }
    }
  }
  return ids;
}

type View = { folderId: string | null; pinned: boolean };

/**
 * The folder tree beside the documents list: all documents, pinned ones, each folder (a drop
 * target for document rows), and the selected folder's actions (new folder inside, rename,
 * move, delete when empty).
 */
export function FolderPanel(props: {
  tenantId: string;
  folders: Folder[];
  view: View;
  onView: (view: View) => void;
  onChanged: () => void;
  onDropDocument: (documentId: string, folderId: string | null) => void;
}) {
  const { folders, view } = props;
  const selected = folders.find((f) => f.id === view.folderId) ?? null;
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const drop = (folderId: string | null) => ({
    onDragOver: (e: DragEvent) => {
      if (!e.dataTransfer.types.includes(DOCUMENT_DRAG_TYPE)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      setDropTarget(folderId ?? 'none');
    },
    onDragLeave: () => setDropTarget(null),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setDropTarget(null);
      const documentId = e.dataTransfer.getData(DOCUMENT_DRAG_TYPE);
      if (documentId) props.onDropDocument(documentId, folderId);
    },
  });
  const entry = (label: string, target: View, current: boolean, folderId?: string | null) => (
    <button
      type="button"
      className={`folder-link${current ? ' current' : ''}${
        dropTarget !== null && dropTarget === (folderId ?? 'none') ? ' drop' : ''
      }`}
      aria-current={current ? 'true' : undefined}
      onClick={() => props.onView(target)}
      {...(folderId !== undefined ? drop(folderId) : {})}
    >
      {label}
    </button>
  );
  // Open beside the list on a wide screen; folded above it on a phone, where it would push the
  // documents below the fold.
  const [open, setOpen] = useState(() => window.matchMedia('(min-width: 60rem)').matches);
  const place = view.pinned ? 'Pinned' : selected ? selected.name : 'All documents';
  return (
    <nav className="folder-panel card" aria-label="Folders">
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>Folders · {place}</summary>
        <ul className="folder-tree">
          <li>
            {entry(
              'All documents',
              { folderId: null, pinned: false },
              !view.folderId && !view.pinned,
              null,
            )}
          </li>
          <li>{entry('Pinned', { folderId: null, pinned: true }, view.pinned)}</li>
        </ul>
        {/* Nested lists, so the tree's depth is told, not only drawn. */}
        {(function branch(parentId: string | null): ReactNode {
          const children = folders.filter((f) => f.parentId === parentId);
          if (children.length === 0) return null;
          return (
            <ul className="folder-tree nested">
              {children.map((folder) => (
                <li key={folder.id}>
                  {entry(
                    folder.name,
                    { folderId: folder.id, pinned: false },
                    view.folderId === folder.id,
                    folder.id,
                  )}
                  {branch(folder.id)}
                </li>
              ))}
            </ul>
          );
        })(null)}
        <NewFolderForm tenantId={props.tenantId} parent={selected} onCreated={props.onChanged} />
        {selected && (
          <FolderActions
            key={selected.id}
            tenantId={props.tenantId}
            folder={selected}
            folders={folders}
            onChanged={props.onChanged}
            onDeleted={() => {
              props.onView({ folderId: selected.parentId, pinned: false });
              props.onChanged();
            }}
          />
        )}
      </details>
    </nav>
  );
}

function NewFolderForm(props: { tenantId: string; parent: Folder | null; onCreated: () => void }) {
  const [name, setName] = useState('');
  const create = useSubmit();
  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void create.submit(async () => {
      await call('POST /api/tenants/{tenantId}/folders', {
        params: { tenantId: props.tenantId },
        json: { name, parentId: props.parent?.id ?? null },
      });
      setName('');
      props.onCreated();
    });
  }
  return (
    <form className="form compact-form" onSubmit={onSubmit} noValidate>
      <TextField
        label={props.parent ? `New folder in ${props.parent.name}` : 'New folder'}
        value={name}
        maxLength={255}
        onChange={(e) => setName(e.target.value)}
        error={
          fieldError(create.errors, 'name', 'Folder name') ??
          fieldError(create.errors, 'parentId', 'Parent folder')
        }
      />
      <button type="submit" className="button secondary small" disabled={create.busy}>
        Create folder
      </button>
      <ErrorMessage error={create.message} />
    </form>
  );
}

function FolderActions(props: {
  tenantId: string;
  folder: Folder;
  folders: Folder[];
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const { folder } = props;
  const params = { tenantId: props.tenantId, folderId: folder.id };
  const [name, setName] = useState(folder.name);
  const save = useSubmit();
  const [failure, setFailure] = useState<string | null>(null);
  function rename(event: FormEvent) {
    event.preventDefault();
    void save.submit(async () => {
      await call('PATCH /api/tenants/{tenantId}/folders/{folderId}', { params, json: { name } });
      props.onChanged();
    });
  }
  const move = (parentId: string | null) =>
    save.submit(async () => {
      await call('PATCH /api/tenants/{tenantId}/folders/{folderId}', {
        params,
        json: { parentId },
      });
      props.onChanged();
    });
  return (
    <div className="folder-actions">
      <form className="form compact-form" onSubmit={rename} noValidate>
        <TextField
          label="Folder name"
          value={name}
          maxLength={255}
          onChange={(e) => setName(e.target.value)}
          error={fieldError(save.errors, 'name', 'Folder name')}
        />
        <button type="submit" className="button secondary small" disabled={save.busy}>
          Rename folder
        </button>
      </form>
      <label className="field">
        <span className="field-label">Inside</span>
        <FolderSelect
          label="Inside"
          folders={props.folders}
          value={folder.parentId}
          exclude={subtree(props.folders, folder.id)}
          noneLabel="Top level"
          onChange={(parentId) => void move(parentId)}
        />
      </label>
      <ErrorMessage error={fieldError(save.errors, 'parentId') ?? save.message} />
      <ConfirmButton
        label="Delete folder"
        accessibleLabel={`Delete folder ${folder.name}`}
        question={`Delete the folder ${folder.name}? Only an empty folder can be deleted.`}
        confirmLabel="Yes, delete"
        onConfirm={async () => {
          setFailure(null);
          try {
            await call('DELETE /api/tenants/{tenantId}/folders/{folderId}', { params });
            props.onDeleted();
          } catch (err) {
            setFailure((err as Error).message);
          }
        }}
      />
      <ErrorMessage error={failure} />
    </div>
  );
}
