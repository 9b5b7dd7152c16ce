package dev.spool.agent.internal;

import dev.spool.mbeans.SpoolMBeans;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * Registers the MBeans ({@code dev.spool:type=Agent}, {@code type=Buffer}, one {@code type=Sink}
 * per routed log file and for the event file) on the platform MBean server — later, never inside
 * premain, and never by creating that server: Spool's beans join it once it exists.
 * <ul>
 *   <li><b>Not inside premain:</b> creating the platform server initialises java.util.logging's
 *       LogManager, which breaks applications that install their own LogManager
 *       ({@code -Djava.util.logging.manager=...}) with a class only their own code makes loadable.
 *       A daemon thread waits {@value #DELAY_MILLIS} ms after premain (none after a dynamic attach)
 *       and, when such a LogManager is named, until its class has been loaded, at most
 *       {@value #MAX_WAIT_MILLIS} ms.
 *   <li><b>Only once the platform server exists</b> (checked every {@value #POLL_MILLIS} ms, without
 *       creating it): a JMX client attaching (JConsole, VisualVM, {@code jcmd ManagementAgent.start})
 *       starts the JVM's management agent, which creates it, as do
 *       {@code -Dcom.sun.management.jmxremote*}, another agent (a metrics exporter) and the host's
 *       own {@code ManagementFactory.getPlatformMBeanServer()}. Creating it (about 300 JMX and
 *       management classes, measured at about 200 ms of CPU on the loaded 2-core machine) and
 *       introspecting Spool's MXBeans used to compete with the host's own start-up even in a JVM
 *       nobody ever watched; now a JVM without JMX clients pays one cheap check per period.
 *       A client sees Spool's beans appear (registration notifications) at most one period after
 *       it connected.
 * </ul>
 * A failure is one {@code [spool]} line, except when the host is already exiting (a short-lived
 * host ends within the delay): then the registration is skipped silently, since nobody can watch
 * the beans any more.
 */
final class DeferredJmx {

    static final long DELAY_MILLIS = 1000;
    static final long MAX_WAIT_MILLIS = 60_000;
    static final long POLL_MILLIS = 200;


    private DeferredJmx() {}

    static void start(Instrumentation inst, AgentControl control, Backends backends, boolean dynamic) {
        Thread t = new Thread(() -> run(inst, control, backends, dynamic), "spool-jmx-registration");
        t.setDaemon(true);
        t.start();
    }

    private static void run(Instrumentation inst, AgentControl control, Backends backends, boolean dynamic) {
        dev.spool.bridge.Hooks.markSpoolThread();
        try {
            awaitSafe(inst, dynamic);
            while (!platformServerExists()) {
                Thread.sleep(POLL_MILLIS);
            }
            SpoolMBeans beans = SpoolMBeans.registerPlatform(backends.buffer(), control,
                    problem -> control.error("jmx:" + problem, "MBeans: " + problem));
            control.beansRegistered(beans);
            AgentLog.debug("MBeans registered");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | LinkageError e) {
            if (jvmShuttingDown()) {
                // a host that ends within the delay: nothing to watch any more, nothing to say
                AgentLog.debug("MBeans not registered: the JVM is shutting down (" + e + ")");
            } else {
                control.error("jmx", "cannot register the MBeans (" + e + "); the agent runs on without them");
            }
        }
    }

    /**
     * Whether the JVM's platform MBean server has been created (by anyone), found without creating
     * it: it is the server {@link MBeanServerFactory} lists that holds the platform's
     * {@code java.lang:type=Runtime} bean.
     */
    static boolean platformServerExists() {
        for (MBeanServer server : MBeanServerFactory.findMBeanServer(null)) {
            try {
                if (server != null && server.isRegistered(RuntimeName.NAME)) {
                    return true;
                }
            } catch (RuntimeException notThisOne) {
                // a server of the host's that refuses the question is not the platform's
            }
        }
        return false;
    }

    /**
     * The platform's {@code java.lang:type=Runtime} bean name, built once (the poll may run for the
     * JVM's whole life), and only on the registration thread: a holder, so premain loads no JMX class.
     */
    private static final class RuntimeName {
        static final ObjectName NAME = create();

        private static ObjectName create() {
            try {
                return new ObjectName(ManagementFactory.RUNTIME_MXBEAN_NAME); // a constant: ManagementFactory stays unloaded
            } catch (MalformedObjectNameException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** True once the JVM has begun its shutdown (a hook can no longer be added). */
    static boolean jvmShuttingDown() {
        Thread probe = new Thread(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }

    /**
     * Returns once touching the platform MBean server is safe (see the class comment); the Kafka
     * shipper waits for this too, because the Kafka client registers MBeans of its own.
     */
    static void awaitSafe(Instrumentation inst, boolean dynamic) throws InterruptedException {
        if (!dynamic) {
            Thread.sleep(DELAY_MILLIS);
        }
        String manager = System.getProperty("java.util.logging.manager");
        long deadline = System.currentTimeMillis() + MAX_WAIT_MILLIS;
        while (manager != null && !loaded(inst, manager) && System.currentTimeMillis() < deadline) {
            Thread.sleep(POLL_MILLIS);
        }
    }

    private static boolean loaded(Instrumentation inst, String className) {
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.getName().equals(className)) {
                return true;
            }
        }
        return false;
    }
}
