// Tailwind 4: no tailwind.config.js; content detection is automatic.
export default {
  plugins: { "@tailwindcss/postcss": {} },
};
