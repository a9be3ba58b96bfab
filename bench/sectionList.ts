/** Every section of the benchmark beyond the workload grid, in the order the report shows them. */
import { editorRoundTripSection } from './editorRoundTrip';
import { manyFilesSection } from './manyFiles';
import { mcpLatencySection } from './mcpLatency';
import type { BenchSection } from './sections';
import { statementScanSection } from './statementScan';
import { syntaxGateSection } from './syntaxGate';

export const SECTIONS: readonly BenchSection<unknown>[] = [manyFilesSection, mcpLatencySection, editorRoundTripSection, syntaxGateSection, statementScanSection];
