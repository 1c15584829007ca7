import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { ConfigError } from '../../config.js';
import type { Storage } from './storage.js';

/** Where and how to reach a bucket, parsed from STORAGE_URL. */
export type S3Location = {
  bucket: string;
  /** Prepended to every key ('' or ending in '/'), so one bucket can hold several services. */
  prefix: string;
  client: S3ClientConfig;
};

// Parts are held in memory until sent: 5 MiB (S3's minimum) times two in flight keeps a
// 45 MiB upload's footprint near 10-15 MiB while still overlapping network and reading.
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

/**
 * Parses `s3://bucket[/prefix]?endpoint=…&region=…&forcePathStyle=true&accessKeyId=…&secretAccessKey=…`.
 * Every query parameter is optional; without keys in the URL the SDK's usual chain is used
 * (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, profiles, instance roles).
 */
export function parseStorageUrl(storageUrl: string): S3Location {
  let url: URL;
  try {
    url = new URL(storageUrl);
  } catch {
    throw new ConfigError('STORAGE_URL is not a valid URL (expected s3://bucket?region=…).');
  }
  if (url.protocol !== 's3:' || !url.hostname) {
    throw new ConfigError('STORAGE_URL must look like s3://bucket?region=… (bucket missing).');
  }
  const q = url.searchParams;
  const known = ['endpoint', 'region', 'forcePathStyle', 'accessKeyId', 'secretAccessKey'];
  const unknown = [...q.keys()].filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    throw new ConfigError(`STORAGE_URL has unknown parameters: ${unknown.join(', ')}.`);
  }
  const forcePathStyle = q.get('forcePathStyle');
  if (forcePathStyle !== null && forcePathStyle !== 'true' && forcePathStyle !== 'false') {
    throw new ConfigError('STORAGE_URL forcePathStyle must be true or false.');
  }
  const accessKeyId = q.get('accessKeyId');
  const secretAccessKey = q.get('secretAccessKey');
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new ConfigError('STORAGE_URL needs both accessKeyId and secretAccessKey, or neither.');
  }
  const endpoint = q.get('endpoint');
  const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  return {
    bucket: decodeURIComponent(url.hostname),
    prefix: path ? `${path}/` : '',
    client: {
      region: q.get('region') ?? process.env.AWS_REGION ?? 'us-east-1',
      ...(endpoint ? { endpoint } : {}),
      forcePathStyle: forcePathStyle === 'true',
      ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
      // S3-compatible servers (MinIO, R2, s3rver…) often reject the SDK's default CRC32
      // trailers; we hash every upload ourselves anyway, so only send checksums S3 demands.
      ...(endpoint
        ? {
            requestChecksumCalculation: 'WHEN_REQUIRED',
            responseChecksumValidation: 'WHEN_REQUIRED',
          }
        : {}),
    },
  };
}

function isNotFound(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404)
  );
}

function notFound(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`no stored object ${key}`), { code: 'ENOENT' });
}

/** Objects in an S3-compatible bucket; uploads stream through in bounded parts. */
export function createS3Storage(location: S3Location): Storage {
  const client = new S3Client(location.client);
  const { bucket, prefix } = location;
  const full = (key: string) => `${prefix}${key}`;
  return {
    async put(key, body, contentType) {
      let size = 0;
      const hash = createHash('sha256');
      let sourceError: unknown = null;
      // Count and hash on the way through (the body is a one-pass stream of unknown length) and
      // keep the source's own error: it is the real cause when the upload then fails.
      const counted = Buffer.isBuffer(body)
        ? body
        : Readable.from(
            (async function* () {
              try {
                for await (const chunk of body) {
                  size += chunk.length;
                  hash.update(chunk);
                  yield chunk;
                }
              } catch (err) {
                sourceError = err;
                throw err;
              }
            })(),
          );
      if (Buffer.isBuffer(body)) {
        size = body.length;
        hash.update(body);
      }
      // A multipart upload becomes visible only when completed, and lib-storage aborts it on
      // any failure (including an error from the source stream), so the object is whole or absent.
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: full(key), Body: counted, ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
      });
      try {
        await upload.done();
      } catch (err) {
        // A failed abort (some S3-compatible servers lack AbortMultipartUpload) would otherwise
        // hide why the upload stopped, e.g. a 413 from the size limit.
        throw sourceError ?? err;
      }
      return { size, sha256: hash.digest('hex') };
    },
    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: full(key) }));
        if (!(res.Body instanceof Readable)) throw new Error('S3 GetObject returned no stream');
        return res.Body;
      } catch (err) {
        throw isNotFound(err) ? notFound(key) : err;
      }
    },
    async readRange(key, start, end) {
      if (end < start) return Buffer.alloc(0);
      try {
        const res = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: full(key), Range: `bytes=${start}-${end}` }),
        );
        if (!res.Body) return Buffer.alloc(0);
        return Buffer.from(await res.Body.transformToByteArray());
      } catch (err) {
        // Like a file read past its end: nothing there.
        if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 416) {
          return Buffer.alloc(0);
        }
        throw isNotFound(err) ? notFound(key) : err;
      }
    },
    async delete(key) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: full(key) }));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
    async list(listPrefix) {
      const out: Array<{ key: string; modifiedAt: Date }> = [];
      let token: string | undefined;
      do {
        const res = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: full(listPrefix),
            ContinuationToken: token,
          }),
        );
        for (const object of res.Contents ?? []) {
          if (!object.Key) continue;
          out.push({
            key: object.Key.slice(prefix.length),
            modifiedAt: object.LastModified ?? new Date(0),
          });
        }
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
  };
}
