package dev.spool.mbeans;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import javax.management.Notification;
import org.junit.jupiter.api.Test;

class SpoolNotifierTest {
    @Test
    void shouldLimitAStormOfOneTypeAndCarryTheSuppressedCount() {
        SpoolNotifier notifier = new SpoolNotifier("src", SpoolNotifier.EVENTS_DROPPED, SpoolNotifier.WRITE_ERROR);
        List<Notification> got = new ArrayList<>();
        notifier.addNotificationListener((n, h) -> got.add(n), null, null);
        int sent = 0;
        for (int i = 0; i < 10_000; i++) {
            if (notifier.send(SpoolNotifier.EVENTS_DROPPED, "dropped " + i, (long) i)) {
                sent++;
            }
        }
        assertTrue(sent >= SpoolNotifier.MAX_PER_WINDOW, "sent " + sent);
        assertTrue(sent < 100, "a storm must be limited, sent " + sent);
        assertEquals(sent, got.size());
        // another type is not starved by the storm
        assertTrue(notifier.send(SpoolNotifier.WRITE_ERROR, "disk full", null));
    }

    @Test
    void shouldReportHowManyWereSuppressedOnceTheWindowReopens() throws InterruptedException {
        SpoolNotifier notifier = new SpoolNotifier("src", SpoolNotifier.EVENTS_DROPPED);
        List<Notification> got = new ArrayList<>();
        notifier.addNotificationListener((n, h) -> got.add(n), null, null);
        for (int i = 0; i < SpoolNotifier.MAX_PER_WINDOW + 3; i++) {
            notifier.send(SpoolNotifier.EVENTS_DROPPED, "x", null);
        }
        long deadline = System.currentTimeMillis() + 10_000;
        boolean sent = false;
        while (!sent && System.currentTimeMillis() < deadline) {
            sent = notifier.send(SpoolNotifier.EVENTS_DROPPED, "y", null);
            if (!sent) {
                Thread.onSpinWait();
            }
        }
        assertTrue(sent);
        Notification last = got.get(got.size() - 1);
        assertFalse(got.isEmpty());
        assertTrue(last.getMessage().contains("suppressed"), last.getMessage());
    }
}
