import { describe, expect, it } from 'vitest';
import { fieldError, otherErrors } from '../../web/src/dashboard/api.js';
import { labelOfPath, readableFieldMessage } from '../../web/src/dashboard/field-messages.js';

// The dashboard's rewriting of the service's 422 messages (pure functions, no browser).
describe('readableFieldMessage', () => {
  it.each([
    // zod's defaults, as the service sends them
    [
      'Tenant name',
      'Too small: expected string to have >=1 characters',
      'Tenant name must not be empty.',
    ],
    [
      'Password',
      'Too small: expected string to have >=1 characters',
      'Password must not be empty.',
    ],
    [
      'Code',
      'Too small: expected string to have >=6 characters',
      'Code must be at least 6 characters long.',
    ],
    [
      'Code',
      'Too small: expected string to have >5 characters',
      'Code must be at least 6 characters long.',
    ],
    [
      'Folder name',
      'Too big: expected string to have <=255 characters',
      'Folder name must be at most 255 characters long.',
    ],
    [
      'Code',
      'Too big: expected string to have exactly 4 characters',
      'Code must be exactly 4 characters long.',
    ],
    [
      'Reminder cooldown (minutes)',
      'Too small: expected number to be >=15',
      'Reminder cooldown must be at least 15.',
    ],
    [
      'Reminder cooldown (minutes)',
      'Too big: expected number to be <=10080',
      'Reminder cooldown must be at most 10080.',
    ],
    ['Amount', 'Too small: expected number to be >0', 'Amount must be more than 0.'],
    ['Order', 'Too small: expected number to be >=1', 'Order must be at least 1.'],
    [
      'Signees',
      'Too small: expected array to have >=1 items',
      'Signees must have at least one entry.',
    ],
    ['Tags', 'Too big: expected array to have <=100 items', 'Tags can have at most 100 entries.'],
    ['E-mail', 'Invalid email address', 'E-mail must be a valid address like name@example.com.'],
    [
      'Callback URL',
      'Invalid URL',
      'Callback URL must be a full URL like https://example.com/webhooks.',
    ],
    ['Tenant', 'Invalid UUID', 'Tenant is not a valid ID.'],
    [
      'Reminder cooldown (minutes)',
      'Invalid input: expected number, received string',
      'Reminder cooldown must be a number.',
    ],
    ['Order', 'Invalid input: expected int, received number', 'Order must be a whole number.'],
    ['Name', 'Invalid input: expected string, received undefined', 'Name is required.'],
    [
      'E-mail language',
      'Invalid option: expected one of "en"|"de"|"fr"',
      'E-mail language must be one of: en, de, fr.',
    ],
    ['Signing order', 'Invalid input: expected "true"', 'Signing order must be "true".'],
    [
      'Code',
      'Invalid string: must match pattern /^[a-z]+$/',
      'Code is not in the expected format.',
    ],
    ['Key', 'Invalid string: must start with "sk_"', 'Key must start with "sk_".'],
    [
      'Field 1',
      'Unrecognized key: "colour"',
      'Field 1 has parts the service does not accept ("colour").',
    ],
    ['Choice', 'Invalid input', 'Choice is not valid.'],
    // the service's own phrases, which follow the field's name
    ['Password', 'must be at least 10 characters', 'Password must be at least 10 characters.'],
    ['Name', 'must not be empty', 'Name must not be empty.'],
    [
      'Signee 2 e-mail',
      'must be a valid e-mail address',
      'Signee 2 e-mail must be a valid address like name@example.com.',
    ],
    [
      'Callback URL',
      'must be an absolute URL',
      'Callback URL must be a full URL like https://example.com/webhooks.',
    ],
    ['Callback URL', 'must be an https: URL', 'Callback URL must start with https://.'],
    [
      'Callback URL',
      'must be an https: URL (http: only to this machine in the sandbox, or with WEBHOOK_ALLOW_PRIVATE_URLS=true for development)',
      'Callback URL must start with https:// (http: only to this machine in the sandbox, or with WEBHOOK_ALLOW_PRIVATE_URLS=true for development).',
    ],
    ['Signee 2 e-mail', 'duplicates signees.0.email', 'Signee 2 e-mail is the same as signee 1’s.'],
    [
      'E-mail',
      'is already the e-mail of signee 01a2-77 (Ann Example)',
      'E-mail is already used by Ann Example, another signee.',
    ],
    ['Message', 'must not contain NUL characters', 'Message must not contain NUL characters.'],
    // whole sentences, with or without the field's name
    ['PDF file', 'a PDF file part named "file" is required', 'Choose a PDF file to upload.'],
    [
      'PDF file',
      'exactly one file is accepted, in the part named "file"',
      'Choose exactly one PDF file.',
    ],
    ['Signees', 'at least one signee is required', 'At least one signee is required.'],
    ['Parent folder', 'folders nest at most 8 deep', 'Folders nest at most 8 deep.'],
    [
      'Parent folder',
      'is the folder itself or a folder inside it',
      'A folder cannot go inside itself or a folder inside it.',
    ],
    [
      'Signee 1',
      'Ann <ann@example.com> has no signature field',
      'Ann <ann@example.com> has no signature field.',
    ],
    ['Name', 'Already a sentence.', 'Already a sentence.'],
    ['', 'must not be empty', 'This field must not be empty.'],
  ])('%s: %s', (label, raw, readable) => {
    expect(readableFieldMessage(label, raw)).toBe(readable);
  });

  it('changes nothing the second time', () => {
    for (const raw of [
      'Too small: expected string to have >=1 characters',
      'Invalid email address',
      'must be an https: URL',
      'Invalid input: expected number, received string',
    ]) {
      const once = readableFieldMessage('E-mail', raw);
      expect(readableFieldMessage('E-mail', once)).toBe(once);
    }
  });
});

describe('labelOfPath', () => {
  it.each([
    ['body.email', 'E-mail'],
    ['body.name', 'Name'],
    ['body.signingMessage', 'Message to the signees'],
    ['body.reminderCooldownMinutes', 'Reminder cooldown'],
    ['body.signingGroupsEnabled', 'Signing groups enabled'],
    ['signees', 'Signees'],
    ['signees.0', 'Signee 1'],
    ['signees.1.email', 'Signee 2 e-mail'],
    ['body.signees.2.name', 'Signee 3 name'],
    ['fields.3.page', 'Field 4 page'],
    ['querystring.cursor', 'Cursor'],
    ['', 'The request'],
  ])('%s is "%s"', (path, label) => {
    expect(labelOfPath(path)).toBe(label);
  });
});

describe('fieldError and otherErrors', () => {
  const errors = [
    { path: 'body.email', message: 'Invalid email address' },
    { path: 'signees.1.email', message: 'must be a valid e-mail address' },
    {
      path: 'body.signingOrderEnabled',
      message: 'Invalid input: expected boolean, received string',
    },
  ];

  it('finds a field by its bare or body path and names it with its label', () => {
    expect(fieldError(errors, 'email', 'Member e-mail')).toBe(
      'Member e-mail must be a valid address like name@example.com.',
    );
    expect(fieldError(errors, 'email')).toBe(
      'E-mail must be a valid address like name@example.com.',
    );
    // A nested path lands on its own row, not the first.
    expect(fieldError(errors, 'signees.0.email', 'Signee 1 e-mail')).toBeUndefined();
    expect(fieldError(errors, 'signees.1.email', 'Signee 2 e-mail')).toBe(
      'Signee 2 e-mail must be a valid address like name@example.com.',
    );
  });

  it('keeps the unclaimed ones, readable, with a label from their path', () => {
    expect(otherErrors(errors, ['email', 'signees.1.email'])).toEqual([
      { path: 'body.signingOrderEnabled', message: 'Signing order must be yes or no.' },
    ]);
  });
});
