import { describe, expect, it } from 'vitest';
import { ENGINES } from '../helpers/context.js';
import { api, quickCreate } from '../helpers/documents.js';
import { createTenantViaHttp, type TestUser } from '../helpers/factories.js';
import { createTemplate } from '../helpers/templates.js';
import { expectNoSecrets, ok, useActivityFixture, type Entry } from './activity-support.js';

describe.each(ENGINES)(
  'tenant activity log: webhooks, templates, API keys and paging on %s',
  (engine) => {
    const f = useActivityFixture(engine);

    it('records webhooks made, changed, rotated and deleted, never their secrets', async () => {
      const { ctx, owner, tenantId, secrets, oneEntry } = f;
      const hooks = `/api/tenants/${tenantId}/webhooks`;
      let created: { body: { webhook: { id: string }; secret: string } } | undefined;
      const made = await oneEntry('webhook.created', async () => {
        created = await ok(
          api(ctx, owner.apiKey, 'POST', hooks, { url: 'http://127.0.0.1:9/a' }),
          201,
        );
      });
      const id = created!.body.webhook.id;
      secrets.push(created!.body.secret);
      expect(made.details).toEqual({ webhookId: id, url: 'http://127.0.0.1:9/a', active: true });
      const changed = await oneEntry('webhook.updated', () =>
        ok(api(ctx, owner.apiKey, 'PATCH', `${hooks}/${id}`, { active: false }), 200),
      );
      expect(changed.details).toEqual({
        webhookId: id,
        changes: { active: { from: true, to: false } },
      });
      const rotated = await oneEntry('webhook.secret_rotated', async () => {
        const res = await ok(api(ctx, owner.apiKey, 'POST', `${hooks}/${id}/rotate-secret`), 200);
        secrets.push(res.body.secret);
      });
      expect(rotated.details).toEqual({ webhookId: id, url: 'http://127.0.0.1:9/a' });
      await oneEntry('webhook.deleted', () =>
        ok(api(ctx, owner.apiKey, 'DELETE', `${hooks}/${id}`), 204),
      );
    });

    it('records a webhook URL change, a draft saved as a template and its fields replaced', async () => {
      const { ctx, owner, tenantId, secrets, entriesOf, oneEntry } = f;
      const hooks = `/api/tenants/${tenantId}/webhooks`;
      const hook = await ok(
        api(ctx, owner.apiKey, 'POST', hooks, { url: 'http://127.0.0.1:9/b' }),
        201,
      );
      secrets.push(hook.body.secret);
      const moved = await oneEntry('webhook.updated', () =>
        ok(
          api(ctx, owner.apiKey, 'PATCH', `${hooks}/${hook.body.webhook.id}`, {
            url: 'http://127.0.0.1:9/c',
          }),
          200,
        ),
      );
      expect(moved.details.changes).toEqual({
        url: { from: 'http://127.0.0.1:9/b', to: 'http://127.0.0.1:9/c' },
      });

      const draft = await quickCreate(ctx, owner.apiKey, { tenantId });
      expect(draft.status).toBe(201);
      let template = { id: '', roles: [{ id: '' }] };
      const saved = await oneEntry('template.created', async () => {
        const res = await ok(
          api(
            ctx,
            owner.apiKey,
            'POST',
            `/api/documents/${draft.body.document.id}/save-as-template`,
            {
              name: 'Saved',
            },
          ),
          201,
        );
        template = res.body.template;
      });
      expect(saved.details).toMatchObject({
        templateId: template.id,
        name: 'Saved',
        documentId: draft.body.document.id,
      });
      const field = {
        roleId: template.roles[0].id,
        type: 'signature',
        page: 1,
        x: 72,
        y: 400,
        width: 150,
        height: 40,
      };
      const placed = await oneEntry('template.updated', () =>
        ok(
          api(ctx, owner.apiKey, 'PUT', `/api/templates/${template.id}/fields`, {
            fields: [field],
          }),
          200,
        ),
      );
      expect(placed.details).toEqual({
        templateId: template.id,
        name: 'Saved',
        changes: { fields: { from: 0, to: 1 } },
      });
      // A field refused (a page the PDF lacks) changes nothing and writes nothing.
      expect(
        await entriesOf(() =>
          ok(
            api(ctx, owner.apiKey, 'PUT', `/api/templates/${template.id}/fields`, {
              fields: [{ ...field, page: 99 }],
            }),
            422,
          ),
        ),
      ).toEqual([]);
    });

    it('records templates made, changed and deleted, by a member too', async () => {
      const { ctx, member, tenantId, oneEntry } = f;
      let templateId = '';
      const made = await oneEntry(
        'template.created',
        async () => {
          const res = await createTemplate(ctx, member.apiKey, { tenantId });
          expect(res.status).toBe(201);
          templateId = res.body.template.id;
        },
        member,
      );
      expect(made.details).toEqual({ templateId, name: 'Lease', roles: ['Tenant', 'Landlord'] });
      const changed = await oneEntry(
        'template.updated',
        () =>
          ok(
            api(ctx, member.apiKey, 'PATCH', `/api/templates/${templateId}`, { name: 'Rent' }),
            200,
          ),
        member,
      );
      expect(changed.details).toEqual({
        templateId,
        name: 'Rent',
        changes: { name: { from: 'Lease', to: 'Rent' } },
      });
      const deleted = await oneEntry(
        'template.deleted',
        () => ok(api(ctx, member.apiKey, 'DELETE', `/api/templates/${templateId}`), 204),
        member,
      );
      expect(deleted.details).toEqual({ templateId, name: 'Rent' });
    });

    it("records API keys its members make and revoke, in each of the member's tenants", async () => {
      const { ctx, member, secrets, oneEntry } = f;
      const second = (await createTenantViaHttp(ctx, member.apiKey, 'Side project')).id;
      const session = { cookie: member.cookie, origin: new URL(ctx.config.publicUrl).origin };
      let created: { id: string; secret: string } = { id: '', secret: '' };
      const bySession = { ...member, apiKeyId: null } as unknown as TestUser;
      const made = await oneEntry(
        'api_key.created',
        async () => {
          const res = await ctx.app.inject({
            method: 'POST',
            url: '/api/account/api-keys',
            headers: session,
            payload: { name: 'CI' },
          });
          expect(res.statusCode).toBe(201);
          created = { id: res.json().apiKey.id, secret: res.json().secret };
          secrets.push(created.secret);
        },
        bySession,
      );
      expect(made.details).toEqual({ apiKeyId: created.id, name: 'CI', environment: 'sandbox' });
      const inSecond = await api(ctx, member.apiKey, 'GET', `/api/tenants/${second}/activity`);
      expect(inSecond.body.activity.map((e: Entry) => e.action)).toEqual([
        'api_key.created',
        'tenant.created',
      ]);
      await oneEntry(
        'api_key.revoked',
        async () => {
          const res = await ctx.app.inject({
            method: 'DELETE',
            url: `/api/account/api-keys/${created.id}`,
            headers: session,
          });
          expect(res.statusCode).toBe(204);
        },
        bySession,
      );
    });

    it('is for owners and admins: a member 403, an outsider 404, a bad cursor 422', async () => {
      const { ctx, owner, member, outsider, url } = f;
      const forbidden = await api(ctx, member.apiKey, 'GET', url());
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.code).toBe('forbidden');
      expect(forbidden.headers.get('content-type')).toContain('application/problem+json');
      expect((await api(ctx, outsider.apiKey, 'GET', url())).status).toBe(404);
      const badCursor = await api(ctx, owner.apiKey, 'GET', url('?cursor=nonsense'));
      expect(badCursor.status).toBe(422);
      expect(badCursor.headers.get('content-type')).toContain('application/problem+json');
      expect(badCursor.body.errors[0].path).toBe('querystring.cursor');
      expect((await api(ctx, owner.apiKey, 'GET', url('?limit=101'))).status).toBe(422);
    });

    it('pages newest first with a cursor over more entries than a page', async () => {
      const { ctx, owner, admin, tenantId, url } = f;
      for (let minutes = 61; minutes <= 90; minutes++) {
        await ok(
          api(ctx, admin.apiKey, 'PATCH', `/api/tenants/${tenantId}/settings`, {
            reminderCooldownMinutes: minutes,
          }),
          200,
        );
      }
      const seen: Entry[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `?limit=7${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await api(ctx, owner.apiKey, 'GET', url(query));
        expect(res.status).toBe(200);
        expect(res.body.activity.length).toBeLessThanOrEqual(7);
        seen.push(...res.body.activity);
        cursor = res.body.nextCursor;
        pages++;
      } while (cursor);
      const count = await ctx.db.kysely
        .selectFrom('tenant_activity')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenantId)
        .executeTakeFirstOrThrow();
      expect(seen.length).toBe(Number(count.n));
      expect(pages).toBe(Math.ceil(seen.length / 7));
      expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
      const keys = seen.map((e) => `${e.createdAt} ${e.id}`);
      expect(keys).toEqual([...keys].sort().reverse());
      // The newest thirty are the patches, the last one first.
      const cooldowns = seen
        .slice(0, 30)
        .map((e) => e.details.changes as { reminderCooldownMinutes: { to: number } })
        .map((c) => c.reminderCooldownMinutes.to);
      expect(cooldowns).toEqual(Array.from({ length: 30 }, (_, i) => 90 - i));
      expect(seen.at(-1)!.action).toBe('tenant.created');
    });

    it('keeps every secret out of every entry', () => expectNoSecrets(f));
  },
);
