/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and connection-holding server deps stay out of the server bundle (loaded from node_modules at runtime).
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "pg",
    "@prisma/adapter-pg",
    "bullmq",
    "ioredis",
    // SKILLOPT_EXTENSIONS' TypeScript files are compiled when loaded (lib/services/extensions.ts).
    "tsx",
  ],
  poweredByHeader: false,
  experimental: {
    // Next buffers every body that passes through proxy.ts and silently cuts it at this size (10 MB by
    // default), which broke 20 MB uploads. Just above the upload limit (MAX_UPLOAD_BYTES in
    // lib/contracts/datasets.ts plus the multipart envelope), so an oversized upload still reaches the
    // route's capped reader and gets a 413 that names the limit.
    proxyClientMaxBodySize: 21 * 1024 * 1024,
  },
};
export default nextConfig;
