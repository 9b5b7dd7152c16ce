package dev.spool.agent.reliability;

import dev.spool.agent.reliability.LogbackKillEvents.Event;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The acknowledged ids of {@link LogbackJournalKillIT}'s rounds against the events found: per round
 * and thread, the events of the files that must hold them (in the order given) must be seqs 0, 1, 2, …
 * consecutive, each once, up to at least the last acknowledged one. {@link #problems} names each
 * reordered or duplicated event (file, line) and, per round, the acknowledged ids that are missing: lost,
 * or found only in a side file ({@code misplaced}); {@link #figures} is the table of acknowledged, lost,
 * misplaced and duplicated ids per round.
 */
final class LogbackKillLedger {
    private final long[][] acked;
    private final long[][] next;
    private final Map<Long, BitSet> seen = new HashMap<>();
    private final Map<Long, BitSet> aside = new HashMap<>();
    private final long[][] duplicated;
    final List<String> problems = new ArrayList<>();

    /** {@code acked[round][thread]}: the last acknowledged seq (-1: none). */
    LogbackKillLedger(long[][] acked) {
        this.acked = acked;
        this.next = new long[acked.length][2];
        this.duplicated = new long[acked.length][2];
    }

    /** Events of the files that must hold the lines, in the order they must appear. */
    void inOrder(List<Event> events) {
        for (Event e : events) {
            if (e.round() >= acked.length) {
                problems.add(e.where() + ": an event of round " + e.round() + ", only " + acked.length + " ran");
                continue;
            }
            BitSet bits = seen.computeIfAbsent(key(e.round(), e.thread()), k -> new BitSet());
            if (e.seq() < Integer.MAX_VALUE && bits.get((int) e.seq())) {
                duplicated[e.round()][e.thread()]++;
                problems.add(e.where() + ": r" + e.round() + " t" + e.thread() + " " + e.seq() + " duplicated (again after "
                        + (next[e.round()][e.thread()] - 1) + ")");
            } else if (e.seq() != next[e.round()][e.thread()]) {
                problems.add(e.where() + ": r" + e.round() + " t" + e.thread() + " seq " + e.seq() + ", expected "
                        + next[e.round()][e.thread()] + (e.seq() > next[e.round()][e.thread()] ? " (a gap)" : " (out of order)"));
            }
            bits.set((int) e.seq());
            next[e.round()][e.thread()] = Math.max(next[e.round()][e.thread()], e.seq() + 1);
        }
    }

    /** Events found in a side file (where the contract puts lines only when the file was truncated). */
    void aside(List<Event> events) {
        for (Event e : events) {
            aside.computeIfAbsent(key(e.round(), e.thread()), k -> new BitSet()).set((int) e.seq());
        }
    }

    /** Adds, per round and thread, the acknowledged ids missing from the files; returns the ids lost in all. */
    long lost() {
        long all = 0;
        for (int r = 0; r < acked.length; r++) {
            for (int t = 0; t < 2; t++) {
                List<long[]> lost = missing(r, t, false);
                List<long[]> misplaced = missing(r, t, true);
                long n = count(lost);
                all += n;
                if (n > 0) {
                    problems.add("round " + r + " thread " + t + ": " + n + " acknowledged ids (of 0.." + acked[r][t] + ") lost: "
                            + ranges(lost));
                }
                if (!misplaced.isEmpty()) {
                    problems.add("round " + r + " thread " + t + ": " + count(misplaced) + " acknowledged ids only in a side file, "
                            + "not in the log file: " + ranges(misplaced));
                }
            }
        }
        return all;
    }

    /** One line per round: acknowledged, lost, misplaced, duplicated ids. */
    String figures() {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < acked.length; r++) {
            long ack = acked[r][0] + acked[r][1] + 2;
            long lost = count(missing(r, 0, false)) + count(missing(r, 1, false));
            long misplaced = count(missing(r, 0, true)) + count(missing(r, 1, true));
            b.append(String.format("%n  round %d: %d acknowledged, %d lost, %d only in a side file, %d duplicated", r, ack, lost,
                    misplaced, duplicated[r][0] + duplicated[r][1]));
        }
        return b.toString();
    }

    /** Acknowledged seqs of round r thread t not in the files: in a side file ({@code inSide}) or nowhere. */
    private List<long[]> missing(int r, int t, boolean inSide) {
        BitSet in = seen.getOrDefault(key(r, t), new BitSet());
        BitSet side = aside.getOrDefault(key(r, t), new BitSet());
        List<long[]> ranges = new ArrayList<>();
        for (int s = 0; s <= acked[r][t]; s++) {
            if (!in.get(s) && side.get(s) == inSide) {
                if (!ranges.isEmpty() && ranges.get(ranges.size() - 1)[1] == s - 1) {
                    ranges.get(ranges.size() - 1)[1] = s;
                } else {
                    ranges.add(new long[] {s, s});
                }
            }
        }
        return ranges;
    }

    private static long count(List<long[]> ranges) {
        return ranges.stream().mapToLong(x -> x[1] - x[0] + 1).sum();
    }

    private static String ranges(List<long[]> ranges) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(ranges.size(), 12); i++) {
            long[] x = ranges.get(i);
            b.append(i == 0 ? "" : ", ").append(x[0] == x[1] ? "" + x[0] : x[0] + "-" + x[1]);
        }
        return b + (ranges.size() > 12 ? " … (" + ranges.size() + " ranges)" : "");
    }

    private static long key(int round, int thread) {
        return round * 2L + thread;
    }
}
