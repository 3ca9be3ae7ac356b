/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and connection-holding server deps stay out of the server bundle (loaded from node_modules at runtime).
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg", "bullmq", "ioredis"],
  poweredByHeader: false,
};
export default nextConfig;
