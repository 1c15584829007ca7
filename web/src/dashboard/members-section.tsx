import { useState, type FormEvent } from 'react';
import { api, fieldError } from './api.js';
import { useSession } from './session.js';
import { ROLES, type Member, type Role, type Tenant } from './types.js';
import { ConfirmButton, ErrorMessage, StatusMessage, TextField } from './ui.js';
import { useLoad } from './use-load.js';
import { useRowActions } from './use-row-actions.js';
import { useSubmit } from './use-submit.js';

/** Members and roles of a tenant: add by e-mail, change a role, remove. */
export function MembersSection(props: { tenant: Tenant }) {
  const { tenant } = props;
  const session = useSession();
  const canManage = tenant.role !== 'member';
  const members = useLoad(
    async () => (await api<{ members: Member[] }>(`/api/tenants/${tenant.id}/members`)).members,
    [tenant.id],
  );
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const { notice, setNotice, failure, run } = useRowActions(members.reload);
  const add = useSubmit();

  function onAdd(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    void add.submit(async () => {
      const { member } = await api<{ member: Member }>(`/api/tenants/${tenant.id}/members`, {
        method: 'POST',
        json: { email, role },
      });
      setEmail('');
      setNotice(`Added ${member.name} as ${member.role}.`);
      members.reload();
    });
  }

  const changeRole = (member: Member, next: Role) =>
    run(async () => {
      await api(`/api/tenants/${tenant.id}/members/${member.userId}`, {
        method: 'PATCH',
        json: { role: next },
      });
      setNotice(`${member.name} is now ${next}.`);
      // My own role may have changed: the navigation and this page depend on it.
      if (member.userId === session.user.id) await session.reloadTenants();
    });

  const remove = (member: Member) =>
    run(async () => {
      await api(`/api/tenants/${tenant.id}/members/${member.userId}`, { method: 'DELETE' });
      setNotice(`Removed ${member.name}.`);
    });

  return (
    <section className="card" aria-labelledby="tenant-members">
      <h2 id="tenant-members">Members</h2>
      {notice && <StatusMessage>{notice}</StatusMessage>}
      <ErrorMessage error={failure ?? members.error} />
      {members.data && (
        <ul className="member-list">
          {members.data.map((m) => (
            <li key={m.userId}>
              <div>
                <strong>{m.name}</strong>
                <span className="muted block">{m.email}</span>
              </div>
              <div className="member-actions">
                {canManage ? (
                  <label>
                    <span className="visually-hidden">Role of {m.name}</span>
                    <select
                      className="text-input compact"
                      value={m.role}
                      onChange={(e) => void changeRole(m, e.target.value as Role)}
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : (
                  <span className="badge">{m.role}</span>
                )}
                {canManage && m.userId !== session.user.id && (
                  <ConfirmButton
                    label="Remove"
                    accessibleLabel={`Remove ${m.name}`}
                    question={`Remove ${m.name} from ${tenant.name}?`}
                    confirmLabel="Yes, remove"
                    onConfirm={() => remove(m)}
                  />
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {canManage && (
        <form className="inline-form" onSubmit={onAdd} noValidate aria-label="Add a member">
          <TextField
            label="Member e-mail"
            type="email"
            hint="They need a Signet account already."
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={fieldError(add.errors, 'email')}
          />
          <div className="field">
            <label className="field-label" htmlFor="new-member-role">
              Role
            </label>
            <select
              id="new-member-role"
              className="text-input"
              value={role}
              onChange={(e) => setRole(e.target.value as Role)}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button primary" disabled={add.busy}>
            Add member
          </button>
        </form>
      )}
      <ErrorMessage error={add.message} />
    </section>
  );
}
