import { z } from 'zod';

/** `GET /api/direct-links/{token}`: what the visitor's page shows before they sign. */
export const directLinkViewResponse = z.object({
  template: z.object({
    name: z.string(),
    signingMessage: z.string().nullable(),
    language: z.string().describe("the template's e-mail language: the page speaks it"),
    senderName: z.string(),
  }),
});

/** `POST /api/direct-links/{token}/documents`: the visitor, who fills the template's one role. */
export const useDirectLinkBody = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(200),
    email: z.email('must be a valid e-mail address').max(254),
  })
  .strict();

/** The 201 answer: the visitor's own signing link, to open at once. */
export const useDirectLinkResponse = z.object({ signingUrl: z.url() });

/** Path parameters of the direct-link routes. */
export const directLinkParams = z.object({ token: z.string().min(1).max(200) });
