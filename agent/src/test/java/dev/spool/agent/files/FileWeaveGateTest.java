package dev.spool.agent.files;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The wait for the JDK file classes' weaving is bounded, taken once, and ends at {@code done()}. */
class FileWeaveGateTest {

    @Test
    void shouldBeOpenAtOnceWhenNothingIsToBeWoven() {
        assertTrue(new FileWeaveGate(false).open());
    }

    @Test
    void shouldStopWaitingAtTheBoundOnceAndOpenWhenTheWeavingEnds() throws Exception {
        FileWeaveGate gate = new FileWeaveGate(true, 50);
        // the bound: a weaving that never ends does not hold the host's write (generous outer bound: loaded machine)
        assertFalse(CompletableFuture.supplyAsync(gate::open).get(30, TimeUnit.SECONDS));
        assertFalse(gate.open(), "after the bound, writes go to the host's own code without waiting again");
        gate.done();
        assertTrue(gate.open());
    }

    @Test
    void shouldLetAWaitingWriterGoOnWhenTheWeavingEnds() throws Exception {
        FileWeaveGate gate = new FileWeaveGate(true, TimeUnit.MINUTES.toMillis(10));
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(gate::open);
        gate.done();
        assertTrue(waiting.get(30, TimeUnit.SECONDS));
    }
}
