package dev.spool.sample.demo;

import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Where one run of the sample app left its outputs.
 *
 * @param label      how the run is named in messages ("without agent")
 * @param dir        the run's {@code --out} folder ({@code jobs/}, {@code sim.log})
 * @param records    the emitted records as JSON lines ({@code emits.jsonl}, or {@code cat}'s output)
 * @param stdout     the run's standard output holding its summary line, or {@code null}
 * @param wallMillis the run's wall time as measured from outside, if known
 */
public record RunOutputs(String label, Path dir, Path records, Path stdout, OptionalLong wallMillis) {

  /** A run whose records are in {@code dir/emits.jsonl}, with no summary and no wall time. */
  public static RunOutputs of(String label, Path dir) {
    return new RunOutputs(label, dir, dir.resolve("emits.jsonl"), null, OptionalLong.empty());
  }
}
