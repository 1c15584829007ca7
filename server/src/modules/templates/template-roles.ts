import { validationError } from '../../lib/errors.js';
import { nonSignerProblem } from '../documents/signee-roles.js';
import type { FieldRow } from '../fields/fields.repo.js';
import type { TemplateRole } from './templates.repo.js';

/**
 * Refuses (422 at `roles[i].role`) roles made approvers or cc recipients while fields are
 * placed for them: fields are only for signers, and removing them unasked would lose the
 * sender's work. Remove the fields (PUT …/fields) first, or keep the role a signer.
 */
export function requireRoleFields(roles: TemplateRole[], fields: FieldRow[]): void {
  const errors = roles.flatMap((role, i) => {
    const problem = nonSignerProblem(role.role, 'role');
    const placed = fields.filter((f) => f.signee_id === role.id).length;
    if (!problem || placed === 0) return [];
    return [
      {
        path: `roles[${i}].role`,
        message: `role ${role.name} has ${placed} field(s); fields are placed only for signers: remove them first`,
      },
    ];
  });
  if (errors.length > 0) {
    throw validationError(errors, 'Fields are placed only for signers: remove them first.');
  }
}
