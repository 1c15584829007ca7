import { createContext, useContext } from 'react';
import type { Meta, Tenant, User } from './types.js';

/** What every dashboard page knows: the host, the user, their tenants and the chosen one. */
export type Session = {
  meta: Meta;
  user: User;
  tenants: Tenant[];
  tenant: Tenant | null;
  selectTenant: (id: string) => void;
  reloadTenants: (selectId?: string) => Promise<void>;
  setUser: (user: User | null) => void;
};

export const SessionContext = createContext<Session | null>(null);

/** The session of a logged-in page; only rendered inside the provider. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside of a logged-in page');
  return session;
}

const TENANT_KEY = 'signet.tenantId';

/** The tenant chosen last time in this browser, if any. */
export function rememberedTenantId(): string | null {
  try {
    return window.localStorage.getItem(TENANT_KEY);
  } catch {
    return null;
  }
}

/** Remembers the chosen tenant for the next visit. */
export function rememberTenantId(id: string): void {
  try {
    window.localStorage.setItem(TENANT_KEY, id);
  } catch {
    // Storage may be off (private mode); choosing again next time is fine.
  }
}
