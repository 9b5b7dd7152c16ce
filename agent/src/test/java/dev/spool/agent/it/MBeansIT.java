package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent registers its MBeans after startup: Agent, Buffer, and one Sink per routed log file. */
class MBeansIT {

    @TempDir
    Path root;

    @Test
    void shouldShowTheRoutedLogFileAsASinkBean() throws Exception {
        Path dir = Files.createDirectories(root.resolve("out"));
        try (Forked host = Forked.start(root, "host", Forked.agentArgs(null), Forked.hostClassPath(),
                "dev.spool.agent.host.JulHost", dir.resolve("app%g.log").toString(), "100", "0", "1", "hold")) {
            host.awaitOutput("written");
            try (JMXConnector jmx = host.connectJmx()) {
                MBeanServerConnection server = jmx.getMBeanServerConnection();
                Forked.awaitCondition(() -> count(server, "dev.spool:type=Sink,*") > 0);
                Set<ObjectName> sinks = server.queryNames(new ObjectName("dev.spool:type=Sink,*"), null);
                String path = (String) server.getAttribute(sinks.iterator().next(), "Path");
                assertTrue(path.endsWith("app0.log"), path);
                assertTrue(server.isRegistered(new ObjectName("dev.spool:type=Agent")));
                assertTrue(server.isRegistered(new ObjectName("dev.spool:type=Buffer")));
            }
        }
    }

    private static int count(MBeanServerConnection server, String pattern) {
        try {
            return server.queryNames(new ObjectName(pattern), null).size();
        } catch (Exception e) {
            return 0;
        }
    }
}
