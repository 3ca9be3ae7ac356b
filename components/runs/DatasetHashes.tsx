import type { DatasetFingerprint } from "@/lib/contracts/api";

const NAMES = { train: "train", val: "selection", test: "test" } as const;

/** The data file's sha256 and each split's count and id hash: equal hashes mean the same items in the same order. */
export function DatasetHashes({ dataset }: { dataset: DatasetFingerprint }) {
  return (
    <div className="space-y-0.5" data-testid="dataset-hashes">
      {dataset.dataPath !== null && (
        <p className="break-all">
          Data <span className="font-mono">{dataset.dataPath}</span> · sha256{" "}
          <span className="font-mono">{dataset.dataSha256}</span>
        </p>
      )}
      <p>
        Split hashes ({dataset.splitMode}):{" "}
        {(Object.keys(NAMES) as Array<keyof typeof NAMES>).map((k, i) => (
          <span key={k}>
            {i > 0 && " · "}
            {NAMES[k]} {dataset.splits[k].count}{" "}
            <span className="font-mono" title={`sha256 of the ${NAMES[k]} split's item ids, in order`}>
              {dataset.splits[k].sha256}
            </span>
          </span>
        ))}
      </p>
    </div>
  );
}
