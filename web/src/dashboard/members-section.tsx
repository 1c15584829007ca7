import { call } from './dashboard-api.js';
import { useState, type FormEvent } from 'react';
import { fieldError } from './api.js';
import { useSession } from './session.js';
import { ROLES, type Invitation, type Member, type Role, type Tenant } from './types.js';
import { ConfirmButton, ErrorMessage, StatusMessage, TextField, Time } from './ui.js';
import { useLoad } from './use-load.js';
import { useRowActions } from './use-row-actions.js';
import { useSubmit } from './use-submit.js';

/** Members and roles of a tenant: invite by e-mail, revoke, change a role, remove, leave. */
export function MembersSection(props: { tenant: Tenant }) {
  const { tenant } = props;
  const session = useSession();
  const canManage = tenant.role !== 'member';
  const members = useLoad(
    async () =>
      (await call('GET /api/tenants/{tenantId}/members', { params: { tenantId: tenant.id } }))
        .members,
    [tenant.id],
  );
  // Only owners and admins may see pending invitations; members are not asked for them.
  const invitations = useLoad(
    async () =>
      canManage
        ? (
            await call('GET /api/tenants/{tenantId}/invitations', {
              params: { tenantId: tenant.id },
            })
          ).invitations
        : [],
    [tenant.id, canManage],
  );
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const { notice, setNotice, failure, run } = useRowActions(() => {
    members.reload();
    invitations.reload();
  });
  const add = useSubmit();

  function onAdd(event: FormEvent) {
    event.preventDefault();
    setNotice(null);
    void add.submit(async () => {
      const { invitation } = await call('POST /api/tenants/{tenantId}/members', {
        params: { tenantId: tenant.id },
        json: { email, role },
      });
      setEmail('');
      setNotice(`Invitation sent to ${invitation.email} (${invitation.role}).`);
      invitations.reload();
    });
  }

  const changeRole = (member: Member, next: Role) =>
    run(async () => {
      await call('PATCH /api/tenants/{tenantId}/members/{userId}', {
        params: { tenantId: tenant.id, userId: member.userId },
        json: { role: next },
      });
      setNotice(`${member.name} is now ${next}.`);
      // My own role may have changed: the navigation and this page depend on it.
      if (member.userId === session.user.id) await session.reloadTenants();
    });

  const remove = (member: Member) =>
    run(async () => {
      await call('DELETE /api/tenants/{tenantId}/members/{userId}', {
        params: { tenantId: tenant.id, userId: member.userId },
      });
      setNotice(`Removed ${member.name}.`);
    });

  const leave = async () => {
    await run(async () => {
      await call('DELETE /api/tenants/{tenantId}/members/{userId}', {
        params: { tenantId: tenant.id, userId: session.user.id },
      });
    });
    // Gone from the tenant: the list of tenants, and the page, no longer show it.
    await session.reloadTenants();
  };

  const revoke = (invitation: Invitation) =>
    run(async () => {
      await call('DELETE /api/tenants/{tenantId}/invitations/{invitationId}', {
        params: { tenantId: tenant.id, invitationId: invitation.id },
      });
      setNotice(`Invitation to ${invitation.email} revoked.`);
    });

  return (
    <section className="card" aria-labelledby="tenant-members">
      <h2 id="tenant-members">Members</h2>
      {notice && <StatusMessage>{notice}</StatusMessage>}
      <ErrorMessage error={failure ?? members.error ?? invitations.error} />
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
                {m.userId === session.user.id && (
                  <ConfirmButton
                    label="Leave"
                    accessibleLabel={`Leave ${tenant.name}`}
                    question={`Leave ${tenant.name}?`}
                    confirmLabel="Yes, leave"
                    onConfirm={leave}
                  />
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {invitations.data && invitations.data.length > 0 && (
        <>
          <h3>Pending invitations</h3>
          <ul className="member-list" aria-label="Pending invitations">
            {invitations.data.map((i) => (
              <li key={i.id}>
                <div>
                  <strong>{i.email}</strong>
                  <span className="muted block">
                    {i.role}, until <Time value={i.expiresAt} />
                  </span>
                </div>
                <div className="member-actions">
                  <button
                    type="button"
                    className="button secondary small"
                    aria-label={`Revoke invitation to ${i.email}`}
                    onClick={() => void revoke(i)}
                  >
                    Revoke
                  </button>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      {canManage && (
        <form className="inline-form" onSubmit={onAdd} noValidate aria-label="Invite a member">
          <TextField
            label="Member e-mail"
            type="email"
            hint="We e-mail them a link; they join when they accept, with an account they have or make."
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={fieldError(add.errors, 'email', 'Member e-mail')}
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
            Send invitation
          </button>
        </form>
      )}
      <ErrorMessage error={add.message} />
    </section>
  );
}
