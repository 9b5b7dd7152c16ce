package dev.spool.kafka;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * The agent's entry into spool-kafka.jar (called reflectively, JDK types only, from
 * {@code dev.spool.agent.kafka.KafkaShipping} on a Spool thread): starts one daemon shipper thread
 * for the event file, registers its MBean {@code dev.spool:type=Shipper,name="<file>"}, and returns
 * the exit procedure the agent's shutdown hook runs with a deadline ({@code spool.kafka.close.timeout}):
 * first the event file is flushed, then the shipper sends what remains and waits for the
 * acknowledgements; whatever is not acknowledged by then is left for the next start or {@code ship}.
 */
public final class AgentShipping {
    private AgentShipping() {
    }

    /**
     * @param keys the {@code spool.kafka.*} settings without the prefix
     * @param eventsFile the structured event file (it may not exist yet)
     * @param flushEvents writes every event emitted so far to the file (bounded)
     * @param jmx whether to register the MBean
     * @param reporter (problem key, message): one {@code [spool]} line per key, counted by the agent
     * @param spoolThreads makes threads the agent's hooks never capture
     * @return the exit procedure: flushes the event file, lets the shipper catch up until the given
     *         deadline ({@link System#nanoTime()}), stops it; the caller's shutdown hook runs it
     * @throws IllegalArgumentException for settings that cannot work (the caller reports it)
     */
    public static LongConsumer start(Map<String, String> keys, Path eventsFile, Runnable flushEvents, boolean jmx,
                                     BiConsumer<String, String> reporter, ThreadFactory spoolThreads) {
        ShipperSettings settings = ShipperSettings.from(keys);
        ClientLog.print(settings.logClient);
        Path file = eventsFile.toAbsolutePath().normalize();
        FileShipper shipper = new FileShipper(file, settings, false, Hosts.name(),
                "spool-" + file.getFileName() + "-" + ProcessHandle.current().pid(), reporter);
        Thread t = spoolThreads.newThread(shipper);
        t.setName("spool-kafka-shipper");
        t.setDaemon(true);
        t.setContextClassLoader(AgentShipping.class.getClassLoader());
        t.start();
        if (jmx) {
            register(shipper, reporter);
        }
        return deadline -> atExit(shipper, t, deadline, flushEvents);
    }

    static ObjectName name(String path) throws javax.management.MalformedObjectNameException {
        return new ObjectName("dev.spool:type=Shipper,name=" + ObjectName.quote(path));
    }

    private static void register(FileShipper shipper, BiConsumer<String, String> reporter) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ShipperStatus status = shipper.status();
            server.registerMBean(new StandardMBean(status, ShipperMXBean.class, true), name(status.getPath()));
        } catch (Exception e) {
            reporter.accept("shipper-mbean", "the Shipper MBean of " + shipper.status().getPath() + " is not registered: " + e);
        }
    }

    /**
     * Bounded: returns by {@code deadline} (System.nanoTime) plus about one second, earlier when the
     * shipper is caught up or waiting cannot help ({@link ExitDrain}: no broker connection and no
     * acknowledgement for three seconds; a torn end no one completes).
     */
    static void atExit(FileShipper shipper, Thread t, long deadline, Runnable flushEvents) {
        Thread flush = new Thread(flushEvents, "spool-kafka-exit-flush");
        flush.setDaemon(true);
        flush.start();
        join(flush, deadline);
        shipper.drainBy(deadline);
        // in slices: the shipper thread may be blocked in the producer (no broker), where only
        // stop() ends the wait; stop as soon as waiting cannot help (ExitDrain)
        while (t.isAlive() && deadline - System.nanoTime() > 0 && !shipper.drainHopeless()) {
            join(t, Math.min(deadline, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100)));
        }
        if (t.isAlive()) {
            shipper.stop();
            join(t, System.nanoTime() + TimeUnit.SECONDS.toNanos(1));
        }
    }

    private static void join(Thread t, long deadline) {
        try {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
