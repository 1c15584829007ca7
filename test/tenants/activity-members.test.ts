import { exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/context.js';
import { insertMember } from '../helpers/db-factories.js';
import { api } from '../helpers/documents.js';
import { createUser } from '../helpers/factories.js';
import { expectNoSecrets, ok, useActivityFixture } from './activity-support.js';
import { smallPngLogo } from './logo-files.js';

describe.each(ENGINES)(
  'tenant activity log: members, settings, branding and keys on %s',
  (engine) => {
    const f = useActivityFixture(engine);

    it('starts with the tenant made by its owner', async () => {
      const { allEntries } = f;
      const entries = await allEntries();
      expect(entries.map((e) => e.action)).toEqual(['tenant.created']);
      expect(entries[0].details).toEqual({ name: 'Activity Ltd' });
    });

    it('records invitations, joining, role changes and removals', async () => {
      const { ctx, owner, admin, tenantId, secrets, entriesOf, oneEntry } = f;
      const newcomer = await createUser(ctx);
      const invited = await oneEntry('invitation.created', () =>
        ok(
          api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenantId}/members`, {
            email: newcomer.email,
            role: 'member',
          }),
          202,
        ),
      );
      expect(invited.details).toMatchObject({ email: newcomer.email, role: 'member' });
      const { text } = await ctx.db.kysely
        .selectFrom('emails')
        .select('text')
        .where('to_address', '=', newcomer.email)
        .executeTakeFirstOrThrow();
      const token = /\/invitations\/(iv_[\w-]+)/.exec(text)![1];
      secrets.push(token);
      const joined = await oneEntry(
        'member.added',
        () => ok(api(ctx, newcomer.apiKey, 'POST', `/api/invitations/${token}/accept`), 200),
        newcomer,
      );
      expect(joined.details).toEqual({
        invitationId: invited.details.invitationId,
        userId: newcomer.id,
        email: newcomer.email,
        role: 'member',
      });
      const memberUrl = `/api/tenants/${tenantId}/members/${newcomer.id}`;
      const promoted = await oneEntry(
        'member.role_changed',
        () => ok(api(ctx, admin.apiKey, 'PATCH', memberUrl, { role: 'admin' }), 200),
        admin,
      );
      expect(promoted.details).toEqual({
        userId: newcomer.id,
        email: newcomer.email,
        from: 'member',
        to: 'admin',
      });
      // The same role again changes nothing and writes nothing.
      expect(
        await entriesOf(() =>
          ok(api(ctx, owner.apiKey, 'PATCH', memberUrl, { role: 'admin' }), 200),
        ),
      ).toEqual([]);
      const removed = await oneEntry('member.removed', () =>
        ok(api(ctx, owner.apiKey, 'DELETE', memberUrl), 204),
      );
      expect(removed.details).toEqual({
        userId: newcomer.id,
        email: newcomer.email,
        role: 'admin',
        left: false,
      });

      const other = await api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenantId}/members`, {
        email: 'later@example.com',
        role: 'admin',
      });
      const revoked = await oneEntry('invitation.revoked', () =>
        ok(
          api(
            ctx,
            owner.apiKey,
            'DELETE',
            `/api/tenants/${tenantId}/invitations/${other.body.invitation.id}`,
          ),
          204,
        ),
      );
      expect(revoked.details).toEqual({
        invitationId: other.body.invitation.id,
        email: 'later@example.com',
        role: 'admin',
      });
    });

    it('records a member leaving, with the member as actor', async () => {
      const { ctx, tenantId, oneEntry } = f;
      const leaver = await createUser(ctx);
      await insertMember(ctx, tenantId, leaver.id, 'member');
      const left = await oneEntry(
        'member.removed',
        () =>
          ok(
            api(ctx, leaver.apiKey, 'DELETE', `/api/tenants/${tenantId}/members/${leaver.id}`),
            204,
          ),
        leaver,
      );
      expect(left.details).toEqual({
        userId: leaver.id,
        email: leaver.email,
        role: 'member',
        left: true,
      });
    });

    it('records the settings a patch changed, old and new, and nothing for no change', async () => {
      const { ctx, owner, tenantId, entriesOf, oneEntry } = f;
      const settings = `/api/tenants/${tenantId}/settings`;
      const entry = await oneEntry('settings.updated', () =>
        ok(
          api(ctx, owner.apiKey, 'PATCH', settings, {
            emailLanguage: 'de',
            brandName: 'Acme',
            invitationEmails: true,
          }),
          200,
        ),
      );
      expect(entry.details).toEqual({
        changes: { emailLanguage: { from: 'en', to: 'de' }, brandName: { from: null, to: 'Acme' } },
      });
      expect(
        await entriesOf(() =>
          ok(api(ctx, owner.apiKey, 'PATCH', settings, { brandName: 'Acme' }), 200),
        ),
      ).toEqual([]);
    });

    it('records the logo put and removed', async () => {
      const { ctx, owner, tenantId, entriesOf, oneEntry } = f;
      const logo = await smallPngLogo();
      const put = await oneEntry('logo.updated', async () => {
        const res = await fetch(`${ctx.baseUrl}/api/tenants/${tenantId}/logo`, {
          method: 'PUT',
          headers: { 'x-api-key': owner.apiKey, 'content-type': 'image/png' },
          body: new Uint8Array(logo),
        });
        expect(res.status).toBe(200);
      });
      expect(Object.keys(put.details).sort()).toEqual(['height', 'width']);
      const logoUrl = `/api/tenants/${tenantId}/logo`;
      await oneEntry('logo.removed', () => ok(api(ctx, owner.apiKey, 'DELETE', logoUrl), 204));
      // Removing no logo is no change.
      expect(await entriesOf(() => ok(api(ctx, owner.apiKey, 'DELETE', logoUrl), 204))).toEqual([]);
    });

    it('records identity keys added and removed by kid, never the key', async () => {
      const { ctx, owner, tenantId, secrets, oneEntry } = f;
      const keys = `/api/tenants/${tenantId}/identity-keys`;
      const pair = await generateKeyPair('ES256', { extractable: true });
      const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'crm-2026' };
      secrets.push(jwk.x!, jwk.y!);
      const added = await oneEntry('identity_keys.updated', () =>
        ok(api(ctx, owner.apiKey, 'PUT', keys, { keys: [jwk] }), 200),
      );
      expect(added.details).toEqual({
        added: ['crm-2026'],
        removed: [],
        replaced: [],
        keys: ['crm-2026'],
      });
      const removed = await oneEntry('identity_keys.updated', () =>
        ok(api(ctx, owner.apiKey, 'PUT', keys, { keys: [] }), 200),
      );
      expect(removed.details).toMatchObject({ added: [], removed: ['crm-2026'] });
    });

    it('writes nothing for a refused change', async () => {
      const { ctx, owner, member, tenantId, entriesOf } = f;
      const refused = await entriesOf(async () => {
        await ok(
          api(ctx, owner.apiKey, 'POST', `/api/tenants/${tenantId}/webhooks`, { url: 'ftp://x' }),
          422,
        );
        await ok(
          api(ctx, owner.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
            brandColor: 'red',
          }),
          422,
        );
        await ok(
          api(ctx, owner.apiKey, 'PUT', `/api/tenants/${tenantId}/identity-keys`, {
            keys: [{ kty: 'EC', kid: 'bad', crv: 'P-256', x: 'AA', y: 'AA', d: 'AA' }],
          }),
          422,
        );
        await ok(
          api(ctx, member.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
            emailLanguage: 'fr',
          }),
          403,
        );
        await ok(
          api(ctx, owner.apiKey, 'DELETE', `/api/tenants/${tenantId}/members/${owner.id}`),
          409,
        );
      });
      expect(refused).toEqual([]);
    });

    it('keeps every secret out of every entry', () => expectNoSecrets(f));
  },
);
