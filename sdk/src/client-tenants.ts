// The client's tenants (members, invitations, settings, credits, logo, identity keys) and
// folders.
import type { Folder, IdentityKey, Membership, Tenant, TenantLogo } from './client-types.js';
import { typed } from './client-documents.js';
import type {
  ActivityPage,
  Credits,
  Invitation,
  Member,
  TenantSettings,
  TenantSettingsEdit,
} from './resource-types.js';
import { toBlob, type Transport } from './transport.js';

type Role = Membership['role'];

/** The tenant methods of a client. */
export function tenantsApi(t: Transport) {
  return {
    /** Tenants the key's user belongs to. */
    list: async () => (await typed<{ tenants: Tenant[] }>(t.call('listTenants'))).tenants,
    /** Creates a tenant; the caller becomes its owner. */
    create: async (input: { name: string }) =>
      (await typed<{ tenant: Tenant }>(t.call('createTenant', {}, {}, { json: input }))).tenant,
    /** Renames a tenant (owners and admins); answers it with the caller's role. */
    rename: async (tenantId: string, input: { name: string }) =>
      (await typed<{ tenant: Tenant }>(t.call('renameTenant', { tenantId }, {}, { json: input })))
        .tenant,
    /** The caller's membership and role in a tenant. */
    membership: async (tenantId: string) =>
      (await typed<{ membership: Membership }>(t.call('getTenant', { tenantId }))).membership,
    /** The tenant's members with their roles. */
    members: async (tenantId: string) =>
      (await typed<{ members: Member[] }>(t.call('listMembers', { tenantId }))).members,
    /** Invites an address to join (owners and admins); the invitation is e-mailed. */
    inviteMember: (tenantId: string, input: { email: string; role: Role }) =>
      t.call('inviteMember', { tenantId }, {}, { json: input }),
    /** Changes a member's role. */
    updateMember: (tenantId: string, userId: string, input: { role: Role }) =>
      t.call('updateMember', { tenantId, userId }, {}, { json: input }),
    /** Removes a member (not the last owner). */
    removeMember: (tenantId: string, userId: string) =>
      typed<void>(t.call('removeMember', { tenantId, userId })),
    /** The tenant's pending invitations. */
    invitations: async (tenantId: string) =>
      (await typed<{ invitations: Invitation[] }>(t.call('listInvitations', { tenantId })))
        .invitations,
    /** Withdraws a pending invitation. */
    revokeInvitation: (tenantId: string, invitationId: string) =>
      typed<void>(t.call('revokeInvitation', { tenantId, invitationId })),
    /** An invitation as its link shows it (the token is the credential). */
    getInvitation: (token: string) => t.call('getInvitation', { token }),
    /** Accepts an invitation as the key's user, who must own the invited address. */
    acceptInvitation: async (token: string) =>
      (await typed<{ membership: Membership }>(t.call('acceptInvitation', { token }))).membership,
    /** The tenant's settings. */
    settings: async (tenantId: string) =>
      (await typed<{ settings: TenantSettings }>(t.call('getTenantSettings', { tenantId })))
        .settings,
    /** Changes some of the tenant's settings (owners and admins); answers them all. */
    updateSettings: async (tenantId: string, patch: TenantSettingsEdit) =>
      (
        await typed<{ settings: TenantSettings }>(
          t.call('updateTenantSettings', { tenantId }, {}, { json: patch }),
        )
      ).settings,
    /**
     * The tenant's activity log, newest first (owners and admins): members, roles, invitations,
     * webhooks, settings, templates, logo, identity keys and API keys; `nextCursor` pages on.
     */
    activity: (tenantId: string, query: { limit?: number; cursor?: string } = {}) =>
      typed<ActivityPage>(t.call('listTenantActivity', { tenantId }, query)),
    /** The tenant's signature credits. */
    credits: (tenantId: string) => typed<Credits>(t.call('getCredits', { tenantId })),
    /** The tenant's logo, or null when it has none. */
    logo: async (tenantId: string) =>
      (await typed<{ logo: TenantLogo | null }>(t.call('getTenantLogo', { tenantId }))).logo,
    /** Uploads the logo: a PNG or JPEG, scaled to at most 400 x 120. */
    setLogo: async (
      tenantId: string,
      image: Blob | Uint8Array | ArrayBuffer,
      type: 'image/png' | 'image/jpeg' = 'image/png',
    ) =>
      (
        await typed<{ logo: TenantLogo }>(
          t.call('putTenantLogo', { tenantId }, {}, { bytes: { data: toBlob(image, type), type } }),
        )
      ).logo,
    /** Removes the logo. */
    deleteLogo: (tenantId: string) => typed<void>(t.call('deleteTenantLogo', { tenantId })),
    /** The public keys identity tokens for the tenant's signing links are checked against. */
    identityKeys: async (tenantId: string) =>
      (await typed<{ keys: IdentityKey[] }>(t.call('getIdentityKeys', { tenantId }))).keys,
    /** Replaces the tenant's identity keys (owners and admins); public JWKs only, at most 10. */
    setIdentityKeys: async (tenantId: string, keys: IdentityKey[]) =>
      (
        await typed<{ keys: IdentityKey[] }>(
          t.call('putIdentityKeys', { tenantId }, {}, { json: { keys } }),
        )
      ).keys,
  };
}

/** The folder methods of a client. */
export function foldersApi(t: Transport) {
  return {
    /** Creates a folder, at the top or inside `parentId`. */
    create: async (tenantId: string, input: { name: string; parentId?: string | null }) =>
      (await typed<{ folder: Folder }>(t.call('createFolder', { tenantId }, {}, { json: input })))
        .folder,
    /** Every folder of the tenant (the listing's pages in turn); each names its parent. */
    list: async (tenantId: string) => {
      const folders: Folder[] = [];
      let cursor: string | undefined;
      do {
        const page = await typed<{ folders: Folder[]; nextCursor: string | null }>(
          t.call('listFolders', { tenantId }, { limit: 1000, cursor }),
        );
        folders.push(...page.folders);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return folders;
    },
    /** One folder. */
    get: async (tenantId: string, folderId: string) =>
      (await typed<{ folder: Folder }>(t.call('getFolder', { tenantId, folderId }))).folder,
    /** Renames and/or moves a folder (parentId null: to the top). */
    update: async (
      tenantId: string,
      folderId: string,
      patch: { name?: string; parentId?: string | null },
    ) =>
      (
        await typed<{ folder: Folder }>(
          t.call('updateFolder', { tenantId, folderId }, {}, { json: patch }),
        )
      ).folder,
    /** Deletes an empty folder. */
    delete: (tenantId: string, folderId: string) =>
      typed<void>(t.call('deleteFolder', { tenantId, folderId })),
  };
}
