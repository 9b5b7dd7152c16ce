package dev.spool.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.VirtualMachine;
import javax.management.Attribute;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill switch ({@code RoutingEnabled}): off flushes what is held and sends later writes down
 * Jackson's own path; on resumes buffering. Driven through the agent's command channel (the same
 * one the MBean adapter and the CLI use).
 */
class KillSwitchIT {

    @TempDir
    Path root;

    @Test
    void shouldFlushAndWriteDirectly_whileRoutingIsOff() throws Exception {
        Path dir = Files.createDirectories(root.resolve("out"));
        Path doc = dir.resolve("doc.json");
        Files.writeString(doc, "{\"step\":0}"); // an existing file (a new one is written at the call)
        try (Forked host = Forked.start(root, "host", Forked.agentArgs("spool.buffer.flush.interval=0"),
                Forked.hostClassPath(Forked.jackson()), "dev.spool.agent.host.AttachHost", dir.toString())) {
            host.awaitOutput("ready");
            OutputStream in = host.process.getOutputStream();
            send(in, "write 1");
            host.awaitOutput("wrote 1 read 1");
            assertEquals("{\"step\":0}", Files.readString(doc), "held in memory while routing is on");

            String off = command(host.pid(), "routing=off");
            assertTrue(off.contains("\"routingEnabled\":false"), off);
            assertEquals("{\"step\":1}", Files.readString(doc), "switching off flushed");

            send(in, "write 2");
            host.awaitOutput("wrote 2 read 2");
            assertEquals("{\"step\":2}", Files.readString(doc), "written by Jackson itself while off");

            String on = command(host.pid(), "routing=on");
            assertTrue(on.contains("\"routingEnabled\":true"), on);
            send(in, "write 3");
            host.awaitOutput("wrote 3 read 3");
            assertEquals("{\"step\":2}", Files.readString(doc), "held in memory again");
            in.close();
            assertEquals(0, host.await(), host.describe());
            assertEquals("{\"step\":3}", Files.readString(doc), "flushed at exit");
        }
    }

    @Test
    void shouldFlipRoutingThroughTheAgentMBean() throws Exception {
        Path dir = Files.createDirectories(root.resolve("out"));
        Path doc = dir.resolve("doc.json");
        Files.writeString(doc, "{\"step\":0}"); // an existing file (a new one is written at the call)
        try (Forked host = Forked.start(root, "host", Forked.agentArgs("spool.buffer.flush.interval=0"),
                Forked.hostClassPath(Forked.jackson()), "dev.spool.agent.host.AttachHost", dir.toString())) {
            host.awaitOutput("ready");
            OutputStream in = host.process.getOutputStream();
            send(in, "write 1");
            host.awaitOutput("wrote 1 read 1");
            assertEquals("{\"step\":0}", Files.readString(doc), "held in memory while routing is on");

            try (JMXConnector jmx = host.connectJmx()) {
                MBeanServerConnection server = jmx.getMBeanServerConnection();
                ObjectName agent = new ObjectName("dev.spool:type=Agent");
                Forked.awaitCondition(() -> Forked.registered(server, agent)); // registered after premain, deferred
                assertEquals(Boolean.TRUE, server.getAttribute(agent, "RoutingEnabled"));
                server.setAttribute(agent, new Attribute("RoutingEnabled", false));
                assertEquals("{\"step\":1}", Files.readString(doc), "switching off flushed");
                send(in, "write 2");
                host.awaitOutput("wrote 2 read 2");
                assertEquals("{\"step\":2}", Files.readString(doc), "written by Jackson itself while off");
            }
            in.close();
            assertEquals(0, host.await(), host.describe());
        }
    }


    private String command(long pid, String command) throws Exception {
        Path reply = root.resolve("reply-" + System.nanoTime() + ".json");
        VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
        try {
            vm.loadAgent(Forked.agentJar(), "spool.command=" + command + ",spool.reply=" + reply);
        } finally {
            vm.detach();
        }
        return Files.readString(reply);
    }

    private static void send(OutputStream in, String line) throws Exception {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }
}
