package dev.spool.sample.demo;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of comparing two runs: every check's verdict, in a fixed order (documents, log,
 * records, counts), plus the runs' summary lines when they were given.
 */
public record Comparison(RunOutputs a, RunOutputs b, JsonNode summaryA, JsonNode summaryB,
    List<CheckResult> checks) {

  public boolean identical() {
    return checks.stream().allMatch(CheckResult::passed);
  }

  /** The first failing check's difference, prefixed with the check's name. */
  public Optional<String> firstDifference() {
    return checks.stream()
        .filter(c -> !c.passed())
        .findFirst()
        .map(c -> c.name() + ": " + c.difference().orElseThrow());
  }
}
