package dev.spool.kafka.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A forked JVM: a {@link ShipHost} with {@code -javaagent:spool-agent.jar} (the agent and
 * spool-kafka.jar copied side by side into {@code dir/dist}, as a user deploys them), or the CLI.
 * Output goes to files in its folder.
 */
final class Host implements AutoCloseable {
    final Process process;
    final Path stdout;
    final Path stderr;

    private Host(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Copies the built agent jar and spool-kafka.jar into {@code dir/dist}; returns the agent jar. */
    static Path deploy(Path dir) throws IOException {
        Path dist = Files.createDirectories(dir.resolve("dist"));
        Path agent = dist.resolve("spool-agent.jar");
        if (!Files.exists(agent)) {
            Files.copy(Path.of(System.getProperty("spool.it.agentJar")), agent, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(Path.of(System.getProperty("spool.it.kafkaJar")), dist.resolve("spool-kafka.jar"),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        return agent;
    }

    static String java() {
        return System.getProperty("spool.it.java", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** A ShipHost with the agent, options as agent arguments; {@code classPath} extra entries after the host's classes. */
    static Host ship(Path dir, String name, String agentOptions, List<String> jvmArgs, String classPath,
                     String... hostArgs) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(java(), "-javaagent:" + deploy(dir) + "=" + agentOptions));
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(System.getProperty("spool.it.hostClasses") + (classPath == null ? "" : java.io.File.pathSeparator + classPath));
        cmd.add(ShipHost.class.getName());
        cmd.addAll(List.of(hostArgs));
        return exec(dir, name, cmd);
    }

    /** {@code java args} (the test's java executable). */
    static Host java(Path dir, String name, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(args);
        return exec(dir, name, cmd);
    }

    /** {@code java -jar spool-agent.jar args}. */
    static Host cli(Path dir, String name, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(java(), "-jar", deploy(dir).toString()));
        cmd.addAll(List.of(args));
        return exec(dir, name, cmd);
    }

    /** Any command (e.g. the JDK's {@code jfr} tool). */
    static Host command(Path dir, String name, List<String> cmd) throws IOException {
        return exec(dir, name, cmd);
    }

    private static Host exec(Path dir, String name, List<String> cmd) throws IOException {
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        return new Host(p, out, err);
    }

    /** Sends one line to the host's stdin. */
    void say(String line) throws IOException {
        OutputStream in = process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    String out() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    String err() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }

    String describe() throws IOException {
        return "--- stdout\n" + out() + "--- stderr\n" + err();
    }

    int await(long seconds) throws IOException, InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("process did not end in " + seconds + " s\n" + describe());
        }
        return process.exitValue();
    }

    void awaitOutput(String text) throws IOException, InterruptedException {
        awaitCondition("'" + text + "' in the output", () -> {
            try {
                return out().contains(text);
            } catch (IOException e) {
                return false;
            }
        });
    }

    /** Polls {@code condition} every 50 ms for at most 120 s (the machine is loaded); fails with the host's output. */
    void awaitCondition(String what, BooleanSupplier condition) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " within 120 s\n" + describe());
            }
            Thread.sleep(50);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
