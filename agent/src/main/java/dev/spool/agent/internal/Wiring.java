package dev.spool.agent.internal;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.spool.agent.advice.EmitterAdvice;
import dev.spool.agent.advice.JacksonReadAdvice;
import dev.spool.agent.advice.JacksonWriteAdvice;
import dev.spool.agent.advice.JulFileOpenAdvice;
import dev.spool.agent.advice.JulMeteredStreamAdvice;
import dev.spool.agent.advice.LogbackStreamAdvice;
import dev.spool.bridge.Hooks;
import dev.spool.config.SpoolConfig;
import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Publishes the hooks and weaves the advice. Type matchers are exact class names only (cheap on
 * every class load, and on the retransformation pass over the classes already loaded); ByteBuddy's
 * default ignore rules are replaced because they would skip the JDK's java.util.logging classes.
 * Each target has its own switch: Jackson when {@code spool.buffer.include} is not empty, JUL by
 * {@code spool.events.jul}, Logback by {@code spool.events.logback}, emitters by
 * {@code spool.events.methods}.
 */
final class Wiring {

    private Wiring() {}

    static void install(Instrumentation inst, SpoolConfig config, File agentJar, boolean dynamic) {
        AgentControl control = new AgentControl(Versions.of(agentJar), config.asMap());
        Settings settings = Settings.from(config, control);
        Map<String, Set<String>> emitters = emitterMethods(config, control);
        Set<String> emitterKeys = new HashSet<>();
        emitters.forEach((type, methods) -> methods.forEach(m -> emitterKeys.add(type + "." + m)));
        Backends backends = new Backends(control, settings.buffer, settings.sink, config.eventsFile());
        control.onFlush(backends::flushEvents);
        HooksImpl hooks = new HooksImpl(control, backends, settings.filter, config.eventsJul(), config.eventsLogback(),
                emitterKeys, !"tee".equalsIgnoreCase(config.eventsMethodsMode()));
        AgentControl.publish(control);
        Hooks.install(hooks, new Commands(control));

        if (System.getProperty("net.bytebuddy.safe") == null) {
            System.setProperty("net.bytebuddy.safe", "true"); // shading relocates this key: it only affects Spool's copy
        }
        AgentBuilder builder = new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.InitializationStrategy.NoOp.INSTANCE)
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(new TransformListener(control))
                .ignore(nameStartsWith("dev.spool."));
        if (!config.bufferInclude().isEmpty()) {
            ElementMatcher.Junction<MethodDescription> write = isMethod().and(named("writeValue"))
                    .and(takesArguments(2)).and(takesArgument(0, File.class));
            ElementMatcher.Junction<MethodDescription> read = isMethod().and(takesArgument(0, File.class))
                    .and(named("readValue").and(takesArguments(1).or(takesArguments(2)))
                            .or(named("readTree").and(takesArguments(1))));
            builder = builder
                    .type(named(HostNames.OBJECT_MAPPER).or(named(HostNames.OBJECT_WRITER)).or(named(HostNames.OBJECT_READER)))
                    .transform((b, type, loader, module, domain) -> b
                            .visit(Advice.to(JacksonWriteAdvice.class).on(write))
                            .visit(Advice.to(JacksonReadAdvice.class).on(read)));
        }
        if (config.eventsJul()) {
            builder = builder
                    .type(named(HostNames.JUL_FILE_HANDLER))
                    .transform((b, type, loader, module, domain) -> b.visit(Advice.to(JulFileOpenAdvice.class)
                            .on(named("open").and(takesArguments(2)).and(takesArgument(0, File.class)))))
                    .type(named(HostNames.JUL_METERED_STREAM))
                    .transform((b, type, loader, module, domain) -> b.visit(Advice.to(JulMeteredStreamAdvice.class)
                            .on(isConstructor().and(takesArguments(2)))));
        }
        if (config.eventsLogback()) {
            builder = builder
                    .type(named(HostNames.LOGBACK_OUTPUT_STREAM_APPENDER))
                    .transform((b, type, loader, module, domain) -> b.visit(Advice.to(LogbackStreamAdvice.class)
                            .on(named("setOutputStream").and(takesArguments(1)))));
        }
        for (Map.Entry<String, Set<String>> e : emitters.entrySet()) {
            ElementMatcher.Junction<MethodDescription> methods = isMethod().and(not(isAbstract())).and(named(e.getValue().iterator().next()));
            for (String m : e.getValue()) {
                methods = methods.or(isMethod().and(not(isAbstract())).and(named(m)));
            }
            ElementMatcher.Junction<MethodDescription> target = methods;
            builder = builder.type(named(e.getKey()))
                    .transform((b, type, loader, module, domain) -> b.visit(Advice.to(EmitterAdvice.class).on(target)));
        }
        builder.installOn(inst);
        AgentLog.debug("installed" + (dynamic ? " (dynamic attach)" : "") + "; instrumented so far: " + control.instrumentedClasses());
    }

    /** {@code spool.events.methods} items {@code class#method}, grouped by class; a malformed item is reported and skipped. */
    static Map<String, Set<String>> emitterMethods(SpoolConfig config, AgentControl control) {
        Map<String, Set<String>> byType = new LinkedHashMap<>();
        for (String item : config.eventsMethods()) {
            String s = item.trim();
            int hash = s.indexOf('#');
            if (hash <= 0 || hash == s.length() - 1 || s.indexOf('#', hash + 1) >= 0) {
                control.error("methods:" + s, "spool.events.methods: '" + s + "' is not class#method; ignored");
                continue;
            }
            byType.computeIfAbsent(s.substring(0, hash), k -> new HashSet<>()).add(s.substring(hash + 1));
        }
        return byType;
    }
}
