/**
 * The demo's checker: compares the outputs of two runs of the sample app (without and with the
 * Spool agent) and says whether they are the same, naming the first difference when they are not.
 * It depends on nothing from Spool: the agent run's event file is turned into JSON lines by the
 * agent's own {@code cat} command before it gets here.
 *
 * <p>What "the same" means, check by check:
 * <ul>
 *   <li>documents: the same files under {@code jobs/}, byte for byte;</li>
 *   <li>the log: the same lines with the same multiplicity, in any order (jobs run in parallel,
 *       so lines of different jobs interleave differently from run to run);</li>
 *   <li>records: the same multiset of JSON values, compared as parsed JSON (object keys in any
 *       order, numbers by value: integers exactly, other numbers as the double they denote, so
 *       {@code 1.50} equals {@code 1.5}), exact otherwise;</li>
 *   <li>the runs' summary lines, when given: the same counts, and counts that match the files.</li>
 * </ul>
 */
package dev.spool.sample.demo;
