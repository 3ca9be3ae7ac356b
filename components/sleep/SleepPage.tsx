"use client";
import { useState } from "react";
import { Button } from "@/components/ui/Button";
import { Card } from "@/components/ui/Card";
import { Notice } from "@/components/ui/Notice";
import type { SleepProjectView } from "@/lib/contracts/sleep";
import { NightsTable } from "./NightsTable";
import { ProjectForm } from "./ProjectForm";
import { ProjectList } from "./ProjectList";
import { useSleepNights, useSleepProjects } from "./sleep-api";

/** The Sleep section: projects and their schedules, the form to add or edit one, every recorded night. */
export function SleepPage() {
  const projects = useSleepProjects();
  const nights = useSleepNights();
  const [editing, setEditing] = useState<SleepProjectView | "new" | null>(null);
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold">Sleep</h1>
        <p className="text-gray-600">
          Nightly cycles that improve your coding agent&apos;s skills from its own sessions. Nothing live changes until
          you adopt a night.
        </p>
      </div>
      <Card
        title="Projects"
        actions={
          editing === null && (
            <Button variant="primary" onClick={() => setEditing("new")}>
              New project
            </Button>
          )
        }
        bodyClassName=""
      >
        {editing !== null && (
          <div className="border-b border-gray-100 p-3">
            <ProjectForm
              key={editing === "new" ? "new" : editing.id}
              project={editing === "new" ? null : editing}
              onDone={() => setEditing(null)}
            />
          </div>
        )}
        {projects.error ? (
          <div className="p-3">
            <Notice tone="error">{(projects.error as Error).message}</Notice>
          </div>
        ) : projects.data ? (
          <ProjectList projects={projects.data} onEdit={setEditing} />
        ) : (
          <p className="p-3 text-gray-500">Loading…</p>
        )}
      </Card>
      <Card title="Nights" bodyClassName="">
        {nights.error ? (
          <div className="p-3">
            <Notice tone="error">{(nights.error as Error).message}</Notice>
          </div>
        ) : nights.data ? (
          <NightsTable nights={nights.data} />
        ) : (
          <p className="p-3 text-gray-500">Loading…</p>
        )}
      </Card>
    </div>
  );
}
