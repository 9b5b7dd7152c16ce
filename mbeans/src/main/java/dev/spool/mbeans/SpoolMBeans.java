package dev.spool.mbeans;

import dev.spool.buffer.BufferListener;
import dev.spool.buffer.SharedBuffer;
import dev.spool.sink.SinkMetrics;
import java.lang.management.ManagementFactory;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers Spool's MXBeans ({@code dev.spool:type=Agent}, {@code type=Buffer},
 * {@code type=Sink,name=...}) and keeps them until {@link #close()} or JVM shutdown. Sinks are
 * added and removed as they open and close ({@link #addSink}, {@link #removeSink}).
 *
 * <p>For an application that uses the runtime API without the agent, one call is enough:
 * <pre>{@code
 * SpoolMBeans beans = SpoolMBeans.registerPlatform(SharedBuffer.global(), null, System.err::println);
 * }</pre>
 *
 * <p>Registration is never thrown at the caller: a name already taken or a server refusing a
 * bean is one line to the problem handler. Thread-safe.
 */
public final class SpoolMBeans implements AutoCloseable {
    private final MBeanRegistry registry;
    private final SharedBuffer buffer;
    private final BufferListener bufferListener;
    private final SpoolNotifier bufferNotifier;
    private final Thread shutdownHook;
    private final SinkWatch sinkWatch = new SinkWatch();
    private final Map<SinkMetrics, ObjectName> sinkNames = new IdentityHashMap<>(); // guarded by this

    private SpoolMBeans(MBeanRegistry registry, SharedBuffer buffer, AgentControl agent) {
        this.registry = registry;
        this.buffer = buffer;
        if (agent != null) {
            registry.register(ObjectNames.agent(), new DescribedMXBean<>(new AgentMXBeanAdapter(agent),
                    AgentMXBean.class, new SpoolNotifier(ObjectNames.agent())));
        }
        if (buffer != null) {
            ObjectName name = ObjectNames.buffer();
            bufferNotifier = new SpoolNotifier(name, SpoolNotifier.FLUSH_COMPLETED, SpoolNotifier.CONFLICT,
                    SpoolNotifier.WRITE_ERROR, SpoolNotifier.BACKPRESSURE);
            bufferListener = new BufferNotifications(bufferNotifier);
            buffer.addListener(bufferListener);
            registry.register(name, new DescribedMXBean<>(new BufferMXBeanAdapter(buffer), BufferMXBean.class,
                    bufferNotifier));
        } else {
            bufferNotifier = null;
            bufferListener = null;
        }
        shutdownHook = new Thread(this::unregisterQuietly, "spool-mbeans-unregister");
        try {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // nothing to add; the JVM is going away
        }
    }

    /** Registers on the platform MBean server (what JConsole and VisualVM show). */
    public static SpoolMBeans registerPlatform(SharedBuffer buffer, AgentControl agent, Consumer<String> problems) {
        return register(ManagementFactory.getPlatformMBeanServer(), buffer, agent, problems);
    }

    /**
     * Registers the buffer's bean (when {@code buffer} is not null) and the agent's (when
     * {@code agent} is not null) on {@code server}.
     */
    public static SpoolMBeans register(MBeanServer server, SharedBuffer buffer, AgentControl agent,
                                       Consumer<String> problems) {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(problems, "problems");
        return new SpoolMBeans(new MBeanRegistry(server, problems), buffer, agent);
    }

    /**
     * Registers {@code dev.spool:type=Sink,name="<absolute path>"} for one sink (drops and write
     * errors become notifications within about a second).
     *
     * @return the bean's name, or {@code null} when it could not be registered (reported)
     */
    public ObjectName addSink(SinkMetrics sink) {
        return addSink(sink, absolute(sink.path()), null);
    }

    /**
     * Registers one logical sink as {@code dev.spool:type=Sink,name="<name>"[,appender="<appender>"]};
     * a name another sink already holds (two logs on one file, two handlers with one pattern)
     * gets {@code ,instance=2}, {@code 3}, ... so two sinks never clash. The bean stays under
     * its first name until {@link #removeSink}.
     *
     * @return the bean's name, or {@code null} when it could not be registered (reported)
     */
    public synchronized ObjectName addSink(SinkMetrics sink, String name, String appender) {
        if (sinkNames.containsKey(sink)) {
            return sinkNames.get(sink);
        }
        ObjectName objectName = ObjectNames.sink(name, appender, 1);
        for (int i = 2; registry.server().isRegistered(objectName); i++) {
            objectName = ObjectNames.sink(name, appender, i);
        }
        SpoolNotifier notifier = new SpoolNotifier(objectName, SpoolNotifier.EVENTS_DROPPED, SpoolNotifier.WRITE_ERROR);
        if (!registry.register(objectName, new DescribedMXBean<>(new SinkMXBeanAdapter(sink), SinkMXBean.class, notifier))) {
            return null;
        }
        sinkNames.put(sink, objectName);
        sinkWatch.watch(sink, notifier);
        return objectName;
    }

    /** Unregisters the bean of one sink (when it is closed). */
    public synchronized void removeSink(SinkMetrics sink) {
        sinkWatch.unwatch(sink);
        ObjectName name = sinkNames.remove(sink);
        if (name != null) {
            registry.unregister(name);
        }
    }

    /** {@code path} made absolute and normalised (as it stands when it is not a path of this platform). */
    public static String absolute(String path) {
        try {
            return Path.of(path).toAbsolutePath().normalize().toString();
        } catch (InvalidPathException | java.io.IOError | SecurityException e) {
            return path;
        }
    }

    /** Whether a bean of this registration is registered under {@code name}. */
    public boolean isRegistered(ObjectName name) {
        return registry.isRegistered(name);
    }

    /** Unregisters every bean this registration added and stops its notifications. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or ran
        }
        unregisterQuietly();
    }

    private void unregisterQuietly() {
        sinkWatch.stop();
        if (buffer != null) {
            buffer.removeListener(bufferListener);
        }
        registry.unregisterAll();
    }

    MBeanRegistry registry() {
        return registry;
    }

    /** Turns buffer events into notifications. */
    private static final class BufferNotifications implements BufferListener {
        private final SpoolNotifier notifier;

        BufferNotifications(SpoolNotifier notifier) {
            this.notifier = notifier;
        }

        @Override
        public void flushCompleted(int files, long millis) {
            notifier.send(SpoolNotifier.FLUSH_COMPLETED, "flush wrote " + files + " file(s) in " + millis + " ms", files);
        }

        @Override
        public void conflict(Path path, Path conflictFile) {
            notifier.send(SpoolNotifier.CONFLICT, path + " was changed on disk by someone else; buffered content saved as "
                    + conflictFile, path.toString());
        }

        @Override
        public void backpressure(long millis, long dirtyBytes, long capacityBytes) {
            notifier.send(SpoolNotifier.BACKPRESSURE, "a write waited " + millis + " ms for the flush: " + dirtyBytes
                    + " dirty bytes over CapacityBytes " + capacityBytes + " (the disk is not keeping up)", millis);
        }

        @Override
        public void writeError(Path path, Throwable error) {
            notifier.send(SpoolNotifier.WRITE_ERROR, "writing " + path + " failed (kept for retry): " + error,
                    path.toString());
        }
    }
}
