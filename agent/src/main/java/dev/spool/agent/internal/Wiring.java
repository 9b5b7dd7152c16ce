package dev.spool.agent.internal;


import dev.spool.internal.jfr.SpoolJfr;
import dev.spool.agent.files.FileOpWeaves;
import dev.spool.agent.files.FileWeaveGate;
import dev.spool.agent.files.HostFileAccess;
import dev.spool.agent.kafka.KafkaShipping;
import dev.spool.agent.jul.JulCaptures;
import dev.spool.bridge.Hooks;
import dev.spool.internal.handoff.CapturedLogWriterPool;
import dev.spool.sink.ByteSink;
import dev.spool.internal.handoff.MpscCapturedRecordQueue;
import dev.spool.internal.config.SpoolConfig;
import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Publishes the hooks and registers the {@link LazyTransformer} over the exact names of the target
 * classes, weaving them with {@link AsmWeaver}.
 * Each target has its own switch: Jackson when {@code spool.buffer.include} is not empty, JUL by
 * {@code spool.events.jul}, Logback by {@code spool.events.logback}, emitters by
 * {@code spool.events.methods}. Under {@code spool.events.visibility=exact} log handlers are woven
 * (so status shows them) but never routed: each byte is in the file when the handler returns.
 */
final class Wiring {

    private Wiring() {}

    static void install(Instrumentation inst, SpoolConfig config, File agentJar, boolean dynamic) {
        SpoolJfr.setEnabled(config.jfrEnabled());
        ByteSink.configureWriterThreads(config.sinkThreads()); // before any sink is created
        AgentControl control = new AgentControl(Versions.of(agentJar), config.asMap());
        Settings settings = Settings.from(config, control);
        Map<String, Set<String>> emitters = emitterMethods(config, control);
        Set<String> emitterKeys = new HashSet<>();
        emitters.forEach((type, methods) -> methods.forEach(m -> emitterKeys.add(type + "." + m)));
        Backends backends = new Backends(control, settings.buffer, settings.sink, config.eventsFile());
        control.backends(backends);
        boolean exact = "exact".equalsIgnoreCase(config.eventsVisibility());
        CapturedLogWriterPool.configureShared(config.eventsCaptureThreads()); // before any captured log registers
        control.visibility(config.eventsVisibilityMaxMillis());
        Set<String> targets = new HashSet<>();
        if (!config.bufferInclude().isEmpty()) {
            targets.add(HostNames.OBJECT_MAPPER);
            targets.add(HostNames.OBJECT_WRITER);
            targets.add(HostNames.OBJECT_READER);
        }
        if (config.eventsJul()) {
            targets.add(HostNames.JUL_FILE_HANDLER);
            targets.add(HostNames.JUL_METERED_STREAM);
            targets.add(HostNames.JUL_STREAM_HANDLER);
        }
        if (config.eventsLogback()) {
            targets.add(HostNames.LOGBACK_OUTPUT_STREAM_APPENDER);
            targets.add(HostNames.LOGBACK_ROLLING_APPENDER);
            targets.add(HostNames.LOGBACK_TIME_TRIGGER_BASE);
        }
        targets.addAll(emitters.keySet());
        Set<String> internalNames = new HashSet<>();
        targets.forEach(t -> internalNames.add(t.replace('.', '/')));
        Map<String, Set<String>> emittersByInternalName = new HashMap<>();
        emitters.forEach((type, methods) -> emittersByInternalName.put(type.replace('.', '/'), methods));
        boolean jackson = !config.bufferInclude().isEmpty();
        // The transformer first: creating the hooks below loads (verifies) agent classes that name JUL's
        // FileHandler and StreamHandler, which must then be woven as they load, not retransformed
        // afterwards (a retransformation is slower and cannot move FileHandler.publish's lock, issue 13).
        // The host's own file operations on buffered files (dev.spool.agent.files): the JDK's classes are loaded
        // already; retransformed on a thread of their own once the first Jackson class is woven (a host without
        // Jackson never pays for it); the first Jackson write waits for it, bounded (FileWeaveGate).
        // A host that routes its logs reads them back (RoutedLogReads): woven too, when the first log
        // stream is routed (a host that never opens a log file never pays for it); that open waits for it.
        boolean routesLogs = (config.eventsJul() || config.eventsLogback()) && !exact;
        boolean weaveFiles = jackson || routesLogs;
        Set<String> fileClasses = weaveFiles ? FileOpWeaves.classes() : Set.of();
        internalNames.addAll(fileClasses);
        FileWeaveGate filesWoven = new FileWeaveGate(weaveFiles);
        if (weaveFiles) {
            HostFileAccess.open(inst);
        }
        Set<String> jacksonClasses = Set.of(HostNames.OBJECT_MAPPER.replace('.', '/'), HostNames.OBJECT_WRITER.replace('.', '/'),
                HostNames.OBJECT_READER.replace('.', '/'));
        LazyTransformer transformer = new LazyTransformer(internalNames, fileClasses, jacksonClasses, filesWoven::done,
                () -> new AsmWeaver(jackson, config.eventsJul(), config.eventsLogback(), weaveFiles, emittersByInternalName, control),
                control, () -> Warmup.run(agentJar, !emitters.isEmpty()));
        transformer.install(inst);
        if (routesLogs) {
            // the host opening its first routed log waits for the weaving (once, bounded as for Jackson's
            // first write): a read of the log right after logging must already be woven (RoutedLogReads)
            control.onFirstRoutedStream(() -> {
                transformer.weaveFilesNow();
                filesWoven.open();
            });
        }
        JulCaptures julCaptures = config.eventsJul() && !exact && config.eventsCapture()
                ? new JulCaptures(control::routingEnabled, control::error, MpscCapturedRecordQueue.DEFAULT_CAPACITY,
                        settings.sink.policy(), settings.sink.waitMillis(), inst, RoutedStream::routesCleanly,
                        control.plainPaths(), settings.sink.journal() ? new RoutedJournalFiles() : null)
                : null;
        HooksImpl hooks = new HooksImpl(control, backends, settings.filter, config.eventsJul() && !exact,
                config.eventsLogback() && !exact, emitterKeys, !"tee".equalsIgnoreCase(config.eventsMethodsMode()),
                config.bufferCapture(), julCaptures);
        hooks.bufferOnlyWhen(filesWoven::open);
        if (settings.sink.journal()) {
            hooks.journalLogback(new RoutedJournalFiles(), config.sinkJournalHostBytes());
        }
        AgentControl.publish(control);
        Commands commands = new Commands(control, backends);
        control.answerCommandsWith(commands); // the Agent bean's status() and flush(): the CLI's answers over JMX
        Hooks.install(hooks, commands);
        if (dynamic && config.eventsJul() && !exact) {
            takeOverOpenJulHandlers(inst, control);
        }
        if (dynamic && config.eventsLogback() && !exact) {
            try {
                AgentLog.debug("routed " + LogbackOpenAppenders.takeOver(inst, control) + " Logback appender(s) opened before attach");
            } catch (RuntimeException | LinkageError e) {
                control.error("logback-open-appenders", "cannot route the Logback appenders opened before attach (" + e
                        + "): they keep writing directly");
            }
        }

        if (config.jmxEnabled()) {
            DeferredJmx.start(inst, control, backends, dynamic);
        }
        if (!config.kafkaBootstrapServers().isEmpty()) {
            KafkaShipping.start(config.kafkaSettings(), config.eventsFile(), backends::flushEvents, config.jmxEnabled(),
                    control::error, () -> DeferredJmx.awaitSafe(inst, dynamic));
        }
        AgentLog.debug("installed" + (dynamic ? " (dynamic attach)" : "") + "; watching " + new TreeSet<>(targets));
    }

    /**
     * Dynamic attach: JUL {@code FileHandler}s the host opened before the agent came hold plain
     * streams (a handler is routed when it opens its file); route them now, as if opened under the
     * agent ({@link dev.spool.agent.jul.JulOpenHandlers}). Only when {@code FileHandler} is loaded
     * already: otherwise no handler is open, and naming it here must not load it.
     */
    private static void takeOverOpenJulHandlers(Instrumentation inst, AgentControl control) {
        try {
            boolean loaded = false;
            for (Class<?> c : inst.getAllLoadedClasses()) {
                if (HostNames.JUL_FILE_HANDLER.equals(c.getName())) {
                    loaded = true;
                    break;
                }
            }
            if (loaded) {
                int n = dev.spool.agent.jul.JulOpenHandlers.takeOver(inst, control::error);
                AgentLog.debug("routed " + n + " JUL FileHandler(s) opened before attach");
            }
        } catch (RuntimeException | LinkageError e) {
            control.error("jul-open-handlers", "cannot route the JUL FileHandlers opened before attach (" + e
                    + "): they keep writing directly");
        }
    }

    /** {@code spool.events.methods} items {@code class#method}, grouped by class; a malformed item is reported and skipped. */
    static Map<String, Set<String>> emitterMethods(SpoolConfig config, AgentControl control) {
        Map<String, Set<String>> byType = new LinkedHashMap<>();
        for (String item : config.eventsMethods()) {
            String s = item.trim();
            int hash = s.indexOf('#');
            if (hash <= 0 || hash == s.length() - 1 || s.indexOf('#', hash + 1) >= 0) {
                control.error("methods:" + s, "spool.events.methods: '" + s + "' is not class#method; ignored");
                continue;
            }
            byType.computeIfAbsent(s.substring(0, hash), k -> new HashSet<>()).add(s.substring(hash + 1));
        }
        return byType;
    }
}
