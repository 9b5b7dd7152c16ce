package dev.spool.cli;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Asks an installed agent through the target's local JMX connector, as JConsole and {@code jcmd}
 * do: the attach API's {@link VirtualMachine#startLocalManagementAgent()} (a diagnostic command,
 * not an agent load, so the JDK prints nothing on the target's stderr), then the Agent bean's
 * {@code status()} or {@code flush()} operation.
 *
 * <p>Only when the agent is there with its beans: the first connection creates the target's
 * platform MBean server, which Spool's beans join within a poll of its registration thread
 * ({@code spool-jmx-registration}); while that thread exists, the bean is waited for, at most
 * {@link #BEANS_WAIT_MILLIS}. Without the bean and without that thread (no agent, or the agent with
 * {@code spool.jmx.enabled=false}) the answer is {@code null} and the caller takes the agent-jar
 * path. What it leaves in the target: the JDK's local management agent, started as by JConsole
 * (a connector on the loopback interface, for local clients of the same user).
 */
final class LocalJmx {

    static final long BEANS_WAIT_MILLIS = 5_000;
    static final String REGISTRATION_THREAD = "spool-jmx-registration";
    private static final long POLL_MILLIS = 50;

    private LocalJmx() {}

    /**
     * The installed agent's JSON answer to {@code command} ({@code status} or {@code flush}), or
     * {@code null} when it cannot be asked this way (no agent bean in the target; an older agent
     * without the operation; the management agent cannot start).
     */
    static String ask(String pid, String command) throws AgentJvm.Failure {
        String address = localAddress(pid);
        if (address == null) {
            return null;
        }
        try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            ObjectName agent = new ObjectName("dev.spool:type=Agent");
            if (!awaitBean(server, agent)) {
                return null;
            }
            Object answer = server.invoke(agent, command, new Object[0], new String[0]);
            return answer instanceof String ? (String) answer : null;
        } catch (IOException | JMException | RuntimeException e) {
            return null; // the agent-jar path still works, and says what is wrong if it does not
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static String localAddress(String pid) throws AgentJvm.Failure {
        VirtualMachine vm = AgentJvm.attach(pid);
        try {
            return vm.startLocalManagementAgent();
        } catch (IOException | RuntimeException e) {
            return null;
        } finally {
            AgentJvm.detach(vm);
        }
    }

    /** Whether the bean is (or, while Spool's registration thread is alive, becomes) registered, bounded. */
    private static boolean awaitBean(MBeanServerConnection server, ObjectName agent)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + BEANS_WAIT_MILLIS * 1_000_000L;
        ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(server, ManagementFactory.THREAD_MXBEAN_NAME,
                ThreadMXBean.class);
        while (true) {
            if (server.isRegistered(agent)) {
                return true;
            }
            if (!hasThread(threads, REGISTRATION_THREAD)) {
                return server.isRegistered(agent); // it may have registered and ended just now
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    private static boolean hasThread(ThreadMXBean threads, String name) {
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
            if (info != null && name.equals(info.getThreadName())) {
                return true;
            }
        }
        return false;
    }
}
