package dev.spool.kafka.it;

import com.sun.tools.attach.VirtualMachine;
import java.nio.file.Path;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/** A real JMX connection to a forked host (attach API, its local management agent). */
final class Jmx implements AutoCloseable {
    private final JMXConnector connector;
    final MBeanServerConnection server;

    private Jmx(JMXConnector connector) throws Exception {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
    }

    /** Attaches; a JVM still starting refuses (the management agent is not ready): retried for at most 60 s. */
    static Jmx connect(long pid) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
                String address;
                try {
                    address = vm.startLocalManagementAgent();
                } finally {
                    vm.detach();
                }
                return new Jmx(JMXConnectorFactory.connect(new JMXServiceURL(address)));
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    static ObjectName shipper(Path file) throws Exception {
        return new ObjectName("dev.spool:type=Shipper,name=" + ObjectName.quote(file.toAbsolutePath().toString()));
    }

    boolean registered(ObjectName name) throws Exception {
        return server.isRegistered(name);
    }

    Object get(ObjectName name, String attribute) throws Exception {
        return server.getAttribute(name, attribute);
    }

    long getLong(ObjectName name, String attribute) throws Exception {
        return ((Number) get(name, attribute)).longValue();
    }

    void invoke(ObjectName name, String operation) throws Exception {
        server.invoke(name, operation, new Object[0], new String[0]);
    }

    /** Closes the connection; a host that has already exited is not an error. */
    @Override
    public void close() {
        try {
            connector.close();
        } catch (java.io.IOException gone) {
            // the host ended first
        }
    }
}
