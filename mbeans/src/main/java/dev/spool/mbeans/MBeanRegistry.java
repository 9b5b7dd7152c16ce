package dev.spool.mbeans;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers Spool's MBeans on one server and remembers them so that {@link #unregisterAll()}
 * removes exactly what it added. A name already taken (another Spool in the same JVM, say) is
 * reported to the problem handler once and skipped, never thrown.
 *
 * <p>Thread-safe.
 */
final class MBeanRegistry {
    private final MBeanServer server;
    private final Consumer<String> problems;
    private final Map<ObjectName, Object> registered = new ConcurrentHashMap<>();

    MBeanRegistry(MBeanServer server, Consumer<String> problems) {
        this.server = server;
        this.problems = problems;
    }

    /** Registers {@code mbean} as {@code name}; returns whether it was registered. */
    boolean register(ObjectName name, Object mbean) {
        try {
            server.registerMBean(mbean, name);
            registered.put(name, mbean);
            return true;
        } catch (InstanceAlreadyExistsException e) {
            problems.accept("MBean " + name + " is already registered (another Spool in this JVM?); not registering");
        } catch (JMException | RuntimeException e) {
            problems.accept("MBean " + name + " could not be registered: " + e);
        }
        return false;
    }

    void unregister(ObjectName name) {
        if (registered.remove(name) == null) {
            return;
        }
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException e) {
            // already gone
        } catch (JMException | RuntimeException e) {
            problems.accept("MBean " + name + " could not be unregistered: " + e);
        }
    }

    void unregisterAll() {
        for (ObjectName name : registered.keySet()) {
            unregister(name);
        }
    }

    boolean isRegistered(ObjectName name) {
        return registered.containsKey(name);
    }

    MBeanServer server() {
        return server;
    }
}
