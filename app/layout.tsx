import type { Metadata } from "next";
import type { ReactNode } from "react";
import { NavBar } from "@/components/ui/NavBar";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "SkillOpt", template: "%s · SkillOpt" },
  description: "Train an agent skill document like network weights.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-gray-50 font-sans text-sm text-gray-900 antialiased">
        <Providers>
          <NavBar />
          <main className="mx-auto w-full max-w-[1600px] px-4 py-4 lg:px-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
