package dev.spool.agent.it;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A host JVM forked by an integration test: the java executable from {@code spool.it.java}
 * (Java 17 by default; {@code -Dspool.it.java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java} runs
 * the same tests on Java 25), the built agent jar from {@code spool.it.agentJar}, the host
 * classes from {@code spool.it.hostClasses} and the host's own libraries from
 * {@code spool.it.hostLibs} — never the test's class path, so the host sees none of Spool.
 */
public final class Forked implements AutoCloseable {

    public static final Duration TIMEOUT = Duration.ofSeconds(60);

    public final Process process;
    public final Path stdout;
    public final Path stderr;

    private Forked(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    public static String java() {
        return System.getProperty("spool.it.java", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    public static String agentJar() {
        String jar = System.getProperty("spool.it.agentJar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("spool.it.agentJar does not name the built agent jar: " + jar
                    + " (run the integration tests with mvn verify)");
        }
        return jar;
    }

    /** Class path of a host: its classes plus the named jars from the host libraries folder. */
    public static String hostClassPath(String... libs) {
        List<String> parts = new ArrayList<>();
        parts.add(System.getProperty("spool.it.hostClasses"));
        for (String lib : libs) {
            parts.add(Path.of(System.getProperty("spool.it.hostLibs"), lib).toString());
        }
        return String.join(File.pathSeparator, parts);
    }

    public static String[] jackson() {
        return new String[] {"jackson-databind.jar", "jackson-core.jar", "jackson-annotations.jar"};
    }

    public static String[] logback() {
        return logback("");
    }

    /** Logback's jars from a sub-folder of the host libraries ({@code ""}: Logback {@code logback.version}; {@code "logback-next"}: {@code logback.next.version}). */
    public static String[] logback(String folder) {
        String at = folder.isEmpty() ? "" : folder + "/";
        return new String[] {at + "logback-classic.jar", at + "logback-core.jar", "slf4j-api.jar"};
    }

    /** Starts {@code java [jvmArgs] -cp classPath mainClass args}, its output going to files in {@code dir}. */
    public static Forked start(Path dir, String name, List<String> jvmArgs, String classPath, String mainClass, String... args)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(jvmArgs);
        if (classPath != null) {
            command.add("-cp");
            command.add(classPath);
        }
        command.add(mainClass);
        command.addAll(Arrays.asList(args));
        return exec(dir, name, command);
    }

    /** Runs the CLI: {@code java -jar spool-agent.jar args}. */
    public static Forked cli(Path dir, String name, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", agentJar()));
        command.addAll(Arrays.asList(args));
        return exec(dir, name, command);
    }

    static Forked exec(Path dir, String name, List<String> command) throws IOException {
        Files.createDirectories(dir);
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        return new Forked(pb.start(), out, err);
    }

    public static List<String> agentArgs(String options) {
        return List.of("-javaagent:" + agentJar() + (options == null || options.isEmpty() ? "" : "=" + options));
    }

    /** Waits for the process to end; fails the test with its output if it does not end in time. */
    public int await() throws IOException, InterruptedException {
        return await(TIMEOUT);
    }

    /** {@link #await()} with a bound of its own. */
    public int await(Duration bound) throws IOException, InterruptedException {
        if (!process.waitFor(bound.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("process did not end in " + bound + "\n" + describe());
        }
        return process.exitValue();
    }

    /** Waits for exit code 0 and returns stdout. */
    public String awaitSuccess() throws IOException, InterruptedException {
        int code = await();
        if (code != 0) {
            throw new AssertionError("exit code " + code + "\n" + describe());
        }
        return out();
    }

    public String out() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    public String err() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }

    public String describe() throws IOException {
        return "--- stdout\n" + out() + "--- stderr\n" + err();
    }

    /** Waits (polling, with a deadline) until stdout contains {@code text}. */
    public void awaitOutput(String text) throws IOException, InterruptedException {
        awaitOutput(text, TIMEOUT);
    }

    /** {@link #awaitOutput(String)} with a bound of its own (a host that starts slowly, e.g. with other agents). */
    public void awaitOutput(String text, Duration bound) throws IOException, InterruptedException {
        awaitCondition(bound, () -> {
            try {
                return out().contains(text) || !process.isAlive();
            } catch (IOException e) {
                return false;
            }
        });
        if (!out().contains(text)) {
            throw new AssertionError("no '" + text + "' in the output\n" + describe());
        }
    }

    public static void awaitCondition(BooleanSupplier condition) throws InterruptedException {
        awaitCondition(TIMEOUT, condition);
    }

    public static void awaitCondition(Duration bound, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met in " + bound);
            }
            Thread.sleep(20);
        }
    }

    /**
     * Whether {@code name} is registered on {@code server}; false when the question fails (Spool's
     * beans join the platform server up to a poll period after a JMX client created it).
     */
    public static boolean registered(javax.management.MBeanServerConnection server, javax.management.ObjectName name) {
        try {
            return server.isRegistered(name);
        } catch (Exception e) {
            return false;
        }
    }

    /** Waits (polling, with a deadline) until stdout holds {@code n} lines starting with {@code prefix}. */
    public void awaitLines(String prefix, int n) throws InterruptedException {
        awaitCondition(() -> {
            try {
                return out().lines().filter(l -> l.startsWith(prefix)).count() >= n || !process.isAlive();
            } catch (IOException e) {
                return false;
            }
        });
        try {
            long have = out().lines().filter(l -> l.startsWith(prefix)).count();
            if (have < n) {
                throw new AssertionError("host ended with " + have + " of " + n + " '" + prefix + "' lines\n" + describe());
            }
        } catch (IOException e) {
            throw new AssertionError("cannot read the host's output", e);
        }
    }

    /** Opens a JMX connection to this host through the attach API's local management agent. */
    public JMXConnector connectJmx() throws IOException {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(String.valueOf(pid()));
        } catch (AttachNotSupportedException e) {
            throw new IOException("cannot attach to " + pid(), e);
        }
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        return JMXConnectorFactory.connect(new JMXServiceURL(address));
    }

    public long pid() {
        return process.pid();
    }

    void closeInput() throws IOException {
        OutputStream in = process.getOutputStream();
        in.close();
    }

    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
