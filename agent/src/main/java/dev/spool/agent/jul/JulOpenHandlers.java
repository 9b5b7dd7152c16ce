package dev.spool.agent.jul;

import dev.spool.agent.journal.RecoveryTarget;

import dev.spool.bridge.Hooks;
import java.io.File;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * Dynamic attach: routes the JUL {@code FileHandler}s that were already open before the agent came,
 * as if they had opened their file under it. A handler is routed when it opens its file (the woven
 * {@code MeteredStream} constructor); one opened earlier holds its plain stream, which weaving a
 * class cannot change. So, once the classes are woven, this finds the open handlers of the
 * {@link LogManager}'s loggers and, under each handler's monitor (the lock its writes and
 * {@code flush} take, on Java 17 and 25), flushes it and puts the same routed stream under its
 * meter that the woven constructor would have ({@link Hooks#wrapLogStream}), named by its
 * generation-0 file. From then on the handler is a routed log like any other: same bytes (its
 * formatter and {@code Writer} are untouched; the meter still counts on the caller's thread, so it
 * rotates at the same record), the kill switch gives it back, a rotation reopens through the woven
 * path. A journal a killed earlier run left beside the file is replayed beside it first
 * ({@code <log>.spool-recovered-<pid>}): this run wrote the file since.
 *
 * <p>Not found: a handler on no logger of the {@code LogManager} (held by the application alone).
 * Only called in a JVM where {@code FileHandler} is already loaded (this class names it: loading
 * it earlier would load {@code FileHandler} before the weaver, see {@link JulCaptures}).
 * Everything is caught: a handler that cannot be taken over keeps its own stream.
 */
public final class JulOpenHandlers {

    private JulOpenHandlers() {}

    /**
     * Takes over every open {@code FileHandler} reachable from the loggers.
     *
     * @return how many handlers are routed now
     */
    public static int takeOver(Instrumentation inst, BiConsumer<String, String> errors) {
        Field meterField;
        Field outField;
        Field filesField;
        try {
            Module logging = Logger.class.getModule();
            Module self = JulOpenHandlers.class.getModule();
            if (!logging.isOpen("java.util.logging", self)) {
                inst.redefineModule(logging, Set.of(), Map.of(), Map.of("java.util.logging", Set.of(self)), Set.of(), Map.of());
            }
            meterField = FileHandler.class.getDeclaredField("meter");
            filesField = FileHandler.class.getDeclaredField("files");
            outField = meterField.getType().getDeclaredField("out");
            meterField.setAccessible(true);
            filesField.setAccessible(true);
            outField.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            errors.accept("jul-open-handlers", "cannot reach the JUL FileHandlers opened before attach (" + e
                    + "): they keep writing directly");
            return 0;
        }
        int routed = 0;
        for (FileHandler handler : openFileHandlers()) {
            try {
                if (takeOver(handler, meterField, outField, filesField, errors)) {
                    routed++;
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                errors.accept("jul-open-handler", "cannot route a JUL FileHandler opened before attach (" + e
                        + "): it keeps writing directly");
            }
        }
        return routed;
    }

    private static boolean takeOver(FileHandler handler, Field meterField, Field outField, Field filesField,
                                    BiConsumer<String, String> errors) throws ReflectiveOperationException {
        File[] named = (File[]) filesField.get(handler); // set at construction, never changed
        if (named == null || named.length == 0 || !divertOldJournal(named[0], errors)) {
            return false; // never opened; or a killed run's journal is still there: it keeps writing directly
        }
        synchronized (handler) {
            Object meter = meterField.get(handler);
            File[] files = (File[]) filesField.get(handler);
            if (meter == null || files == null || files.length == 0) {
                return false; // closed, or never opened
            }
            OutputStream out = (OutputStream) outField.get(meter);
            handler.flush(); // what its Writer holds goes to the file first, on the plain path
            Hooks.nextStreamOwner(handler);
            Hooks.nextStreamName(files[0].getPath());
            OutputStream routed = Hooks.wrapLogStream("jul", null, out);
            if (routed == out) {
                return false; // routing off, already routed, or the sink refused: stays as it is
            }
            outField.set(meter, routed);
            return true;
        }
    }

    /**
     * A journal an earlier, killed run left beside the file (outside the handler's monitor: the host
     * keeps logging meanwhile): this run has written the file since, so those lines have no place in
     * it any more; they go beside it ({@link RecoveryTarget}), and the routing started next
     * journals afresh. A journal this process writes (the handler is routed already) is left alone.
     *
     * @return false when a killed run's journal is still there (refused or failed): the handler is
     *         not taken over, so the start of routing does not replay it after this run's lines
     */
    private static boolean divertOldJournal(File file, BiConsumer<String, String> errors) {
        java.nio.file.Path path = file.toPath().toAbsolutePath();
        try {
            JulJournalRecovery.Result r = JulJournalRecovery.recoverAtTakeover(path);
            if (r.problem() != null) {
                errors.accept("jul-journal-recovery:" + file, r.describe(path) + "; the handler is not taken over");
                return false;
            }
            if (r.lines() > 0 || r.note() != null) {
                dev.spool.agent.internal.AgentLog.info(r.describe(path));
            }
            return true;
        } catch (java.io.IOException | RuntimeException e) {
            errors.accept("jul-journal-recovery:" + file, "the journal beside " + file + " not replayed at attach (" + e
                    + "): kept for `spool recover " + file + "`; the handler is not taken over");
            return false;
        }
    }

    /** The distinct {@code FileHandler}s of every logger the {@link LogManager} knows, the root's included. */
    private static List<FileHandler> openFileHandlers() {
        Map<Handler, Boolean> seen = new IdentityHashMap<>();
        List<FileHandler> found = new ArrayList<>();
        LogManager manager = LogManager.getLogManager();
        for (String name : Collections.list(manager.getLoggerNames())) {
            Logger logger = manager.getLogger(name);
            if (logger == null) {
                continue;
            }
            for (Handler h : logger.getHandlers()) {
                if (h instanceof FileHandler && seen.put(h, Boolean.TRUE) == null) {
                    found.add((FileHandler) h);
                }
            }
        }
        return found;
    }
}
