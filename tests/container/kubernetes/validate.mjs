// Validates the Kubernetes manifests offline: every document of every file against the API schema of
// its apiVersion and kind (kubernetes-models, pinned in package.json: JSON Schema generated from the
// Kubernetes OpenAPI, compiled with Ajv), then the properties puzzled relies on across the files:
// probes on /healthz and /readyz, non-root and read-only root, resources, a termination grace period
// above preStop + --drain-ms, and the Service, HorizontalPodAutoscaler and PodDisruptionBudget
// pointing at the Deployment's pods; and the Indexed Job of a split queens count (jobs/queens-count.yaml):
// one pod per part of the service's own image, retried per part by Kubernetes, not in the kustomization.
// The schemas check types, required fields and enums, not unknown
// field names: a misspelt field the checks below rely on makes its check fail instead.
//   node validate.mjs FILE.yaml...
// Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseAllDocuments } from "yaml";
import * as models from "kubernetes-models";

let passed = 0;
let failed = 0;
function check(description, ok) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"}  ${description}`);
}

// kubernetes-models exports each API group by its camel-cased name: "apps/v1" as models.apps.v1,
// "networking.k8s.io/v1" as models.networkingK8sIo.v1, the core "v1" as models.v1.
function modelClass(apiVersion, kind) {
  const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
  const groupName = group.split(".").map((part, i) => (i ? part[0].toUpperCase() + part.slice(1) : part)).join("");
  const groupModule = group === "" ? models : models[groupName];
  return groupModule?.[version]?.[kind];
}

const objects = [];
for (const file of process.argv.slice(2)) {
  for (const document of parseAllDocuments(readFileSync(file, "utf8"))) {
    const where = `${basename(file)}: ${document.get("kind")} ${document.getIn(["metadata", "name"])}`;
    if (document.errors.length > 0) {
      check(`${where} is valid YAML (${document.errors[0].message})`, false);
      continue;
    }
    const object = document.toJS();
    if (object === null) continue;
    if (object.apiVersion === "kustomize.config.k8s.io/v1beta1") {
      objects.push({ file, object });
      continue;
    }
    const Model = modelClass(object.apiVersion ?? "", object.kind ?? "");
    if (!Model) {
      check(`${where}: ${object.apiVersion} ${object.kind} is a Kubernetes API kind`, false);
      continue;
    }
    let error = null;
    try {
      new Model(object).validate();
    } catch (e) {
      error = e.message;
    }
    check(`${where} matches the ${object.apiVersion} ${object.kind} schema${error ? `: ${error}` : ""}`, !error);
    objects.push({ file, object });
  }
}

const find = (kind) => objects.filter((o) => o.object.kind === kind).map((o) => o.object);
const [deployment] = find("Deployment");
const [service] = find("Service");
const [autoscaler] = find("HorizontalPodAutoscaler");
const [budget] = find("PodDisruptionBudget");
const [kustomization] = find("Kustomization");
check("there is one each of Deployment, Service, HorizontalPodAutoscaler, PodDisruptionBudget",
  deployment && service && autoscaler && budget && objects.length >= 4);
if (!deployment || !service || !autoscaler || !budget) {
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(1);
}

const pod = deployment.spec.template.spec;
const container = pod.containers.find((c) => c.name === "puzzled") ?? {};
const podLabels = deployment.spec.template.metadata?.labels ?? {};
const selects = (selector) => Object.keys(selector ?? {}).length > 0 &&
  Object.entries(selector).every(([key, value]) => podLabels[key] === value);
const httpPort = (container.ports ?? []).find((p) => p.name === "http" || p.containerPort === 8080);
const probe = (name) => container[name]?.httpGet ?? {};
const probePortOk = (name) => [httpPort?.name, httpPort?.containerPort].includes(probe(name).port);

check(`the Deployment's selector matches its pod labels`, selects(deployment.spec.selector.matchLabels));
check(`liveness probe GET /healthz on the service port (got ${probe("livenessProbe").path})`,
  probe("livenessProbe").path === "/healthz" && probePortOk("livenessProbe"));
check(`readiness probe GET /readyz on the service port (got ${probe("readinessProbe").path})`,
  probe("readinessProbe").path === "/readyz" && probePortOk("readinessProbe"));
const runAsUser = container.securityContext?.runAsUser ?? pod.securityContext?.runAsUser;
const runAsNonRoot = container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
check(`runs as non-root (runAsNonRoot ${runAsNonRoot}, runAsUser ${runAsUser})`, runAsNonRoot === true && runAsUser > 0);
check("read-only root filesystem", container.securityContext?.readOnlyRootFilesystem === true);
check("no privilege escalation, all capabilities dropped",
  container.securityContext?.allowPrivilegeEscalation === false &&
  (container.securityContext?.capabilities?.drop ?? []).includes("ALL"));
const resources = container.resources ?? {};
check(`CPU and memory requests and limits (${JSON.stringify(resources)})`,
  ["requests", "limits"].every((k) => resources[k]?.cpu && resources[k]?.memory));

// --drain-ms from the container's args (flag) or env (PUZZLED_DRAIN_MS), else puzzled's default.
const args = container.args ?? [];
const flagIndex = args.indexOf("--drain-ms");
const drainMs = Number(flagIndex >= 0 ? args[flagIndex + 1]
  : (container.env ?? []).find((e) => e.name === "PUZZLED_DRAIN_MS")?.value ?? 10000);
const preStop = container.lifecycle?.preStop?.exec?.command ?? [];
const preStopSeconds = preStop[0] === "sleep" ? Number(preStop[1]) : 0;
const graceSeconds = pod.terminationGracePeriodSeconds ?? 30;
check(`a preStop pause lets endpoints be removed before the drain (${preStop.join(" ") || "none"})`, preStopSeconds > 0);
check(`terminationGracePeriodSeconds ${graceSeconds} s > preStop ${preStopSeconds} s + --drain-ms ${drainMs} ms`,
  graceSeconds * 1000 > preStopSeconds * 1000 + drainMs);

check("the Service selects the Deployment's pods", selects(service.spec.selector));
check("the Service's targetPort is the container's port",
  service.spec.ports.every((p) => [httpPort?.name, httpPort?.containerPort].includes(p.targetPort)));
const target = autoscaler.spec.scaleTargetRef;
check(`the HorizontalPodAutoscaler scales the Deployment (${target.kind} ${target.name})`,
  target.kind === "Deployment" && target.name === deployment.metadata.name && target.apiVersion === deployment.apiVersion);
const cpuMetric = (autoscaler.spec.metrics ?? []).find((m) => m.type === "Resource" && m.resource?.name === "cpu");
check(`the HorizontalPodAutoscaler scales on CPU utilization (${cpuMetric?.resource?.target?.averageUtilization}%), which needs a CPU request`,
  cpuMetric?.resource?.target?.type === "Utilization" && resources.requests?.cpu);
check(`at least 2 replicas (HorizontalPodAutoscaler minReplicas ${autoscaler.spec.minReplicas}), so the PodDisruptionBudget can be met`,
  autoscaler.spec.minReplicas >= 2);
check("the PodDisruptionBudget selects the Deployment's pods", selects(budget.spec.selector?.matchLabels));
const jobs = objects.filter((o) => o.object.kind === "Job");
if (kustomization) {
  const listed = new Set(kustomization.resources ?? []);
  const others = objects.filter((o) => o.object !== kustomization && o.object.kind !== "Job").map((o) => basename(o.file));
  check(`kustomization.yaml lists every manifest of the service (${[...listed].join(", ")})`, others.every((f) => listed.has(f)));
  check("kustomization.yaml lists no Job: applying the service starts no count",
    jobs.every((o) => !listed.has(basename(o.file)) && !listed.has(`jobs/${basename(o.file)}`)));
}

// The Indexed Job: K pods, pod i counting part i of K with the Deployment's image.
for (const { object: job } of jobs) {
  const name = `Job ${job.metadata.name}`;
  const spec = job.spec ?? {};
  const jobPod = spec.template?.spec ?? {};
  const counter = (jobPod.containers ?? [])[0] ?? {};
  const jobArgs = counter.args ?? [];
  const flag = (f) => (jobArgs.indexOf(f) >= 0 ? Number(jobArgs[jobArgs.indexOf(f) + 1]) : undefined);
  check(`${name}: completionMode Indexed (each pod gets its JOB_COMPLETION_INDEX)`, spec.completionMode === "Indexed");
  check(`${name}: completions ${spec.completions} = --parts ${flag("--parts")}, one pod per part`,
    spec.completions >= 1 && spec.completions === flag("--parts"));
  check(`${name}: counts a board (--count-queens ${flag("--count-queens")})`, flag("--count-queens") >= 1 && flag("--count-queens") <= 32);
  check(`${name}: parallelism ${spec.parallelism} from 1 to completions`, spec.parallelism >= 1 && spec.parallelism <= spec.completions);
  check(`${name}: a failed part is retried by Kubernetes, per part (backoffLimitPerIndex ${spec.backoffLimitPerIndex})`,
    spec.backoffLimitPerIndex >= 1);
  check(`${name}: restartPolicy Never (per-part retries and podFailurePolicy need it)`, jobPod.restartPolicy === "Never");
  check(`${name}: runs the Deployment's image (${counter.image})`, counter.image === container.image);
  const jobRunAsUser = counter.securityContext?.runAsUser ?? jobPod.securityContext?.runAsUser;
  check(`${name}: runs as non-root, read-only root, no capabilities`,
    (counter.securityContext?.runAsNonRoot ?? jobPod.securityContext?.runAsNonRoot) === true && jobRunAsUser > 0 &&
    counter.securityContext?.readOnlyRootFilesystem === true && (counter.securityContext?.capabilities?.drop ?? []).includes("ALL"));
  check(`${name}: CPU and memory requests and limits`,
    ["requests", "limits"].every((k) => counter.resources?.[k]?.cpu && counter.resources?.[k]?.memory));
  check(`${name}: --workers ${flag("--workers")} uses the pod's CPU limit ${counter.resources?.limits?.cpu}`,
    flag("--workers") === Number(counter.resources?.limits?.cpu));
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
