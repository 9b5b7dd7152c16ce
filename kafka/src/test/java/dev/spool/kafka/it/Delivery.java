package dev.spool.kafka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The shipping invariant, checked on what a real consumer read from the topic against what the
 * file holds ({@link EventFileBytes#values}, i.e. {@code spool cat}): under one stream id, every
 * record of the file is there under {@code <stream>:<ordinal>} with exactly the value cat prints
 * for that ordinal, first occurrences in file order within the partition, nothing that is not in
 * the file, and duplicates only at or after the first record that was not acknowledged.
 */
public final class Delivery {
    private Delivery() {
    }

    /** The topic's records of {@code stream}, in the order consumed. */
    public static List<Topic.Rec> of(List<Topic.Rec> recs, String stream) {
        return recs.stream().filter(r -> r.stream().equals(stream)).collect(Collectors.toList());
    }

    /** The stream ids in the topic, in first-seen order. */
    public static List<String> streams(List<Topic.Rec> recs) {
        return recs.stream().map(Topic.Rec::stream).distinct().collect(Collectors.toList());
    }

    /**
     * @param file what {@code cat} prints for the file, one value per ordinal
     * @param except ordinals that must not be in the topic (dead-lettered), or empty
     * @param firstUnacked duplicates are allowed only at or after this ordinal
     */
    public static void assertExactly(List<Topic.Rec> recs, String stream, List<String> file, List<Long> except,
                                     long firstUnacked) {
        List<Topic.Rec> mine = of(recs, stream);
        assertTrue(!stream.isEmpty(), "a stream id");
        assertEquals(1, mine.stream().map(Topic.Rec::partition).distinct().count(), "one partition per stream");
        Map<Long, Integer> seen = new HashMap<>();
        List<Long> firsts = new ArrayList<>();
        for (Topic.Rec r : mine) {
            long o = r.ordinal();
            assertTrue(o >= 0 && o < file.size(), "shipped " + r.key() + ", which is not in the file (" + file.size()
                    + " records)");
            assertEquals(file.get((int) o), r.value(), "the value of " + r.key() + " is what cat prints for ordinal " + o);
            assertTrue(!except.contains(o), r.key() + " must not be in the topic");
            if (seen.merge(o, 1, Integer::sum) == 1) {
                firsts.add(o);
            } else {
                assertTrue(o >= firstUnacked, "duplicate " + r.key() + " before the unacknowledged window " + firstUnacked);
            }
        }
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < file.size(); i++) {
            if (!except.contains(i)) {
                expected.add(i);
            }
        }
        assertEquals(expected, firsts, "every record of the file, first occurrences in file order");
    }

    /**
     * After a record the broker refused for good: its batch failed as a whole, while a later batch
     * of the same window may have been acknowledged first (those records can reach the topic before
     * the refused batch's earlier ones); the rewind sends the window again. So: every record of the
     * file but {@code except}, each value what {@code cat} prints, and the file's order as a
     * subsequence of the topic (the resend), not as the order of first occurrences.
     */
    public static void assertEveryRecordAndTheResendInOrder(List<Topic.Rec> recs, String stream, List<String> file,
                                                          List<Long> except) {
        List<Topic.Rec> mine = of(recs, stream);
        assertEquals(1, mine.stream().map(Topic.Rec::partition).distinct().count(), "one partition per stream");
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < file.size(); i++) {
            if (!except.contains(i)) {
                expected.add(i);
            }
        }
        int next = 0;
        java.util.Set<Long> seen = new java.util.TreeSet<>();
        for (Topic.Rec r : mine) {
            long o = r.ordinal();
            assertTrue(o >= 0 && o < file.size() && !except.contains(o), "shipped " + r.key() + ", which must not be");
            assertEquals(file.get((int) o), r.value(), "the value of " + r.key() + " is what cat prints for ordinal " + o);
            seen.add(o);
            if (next < expected.size() && expected.get(next) == o) {
                next++;
            }
        }
        assertEquals(new java.util.TreeSet<>(expected), seen, "every record of the file");
        assertEquals(expected.size(), next, "the file's order, as a subsequence of the topic: "
                + mine.stream().map(Topic.Rec::ordinal).toList());
    }
}
