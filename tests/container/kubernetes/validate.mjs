// Validates the Kubernetes manifests offline: every document of every file against the API schema of
// its apiVersion and kind (kubernetes-models, pinned in package.json: JSON Schema generated from the
// Kubernetes OpenAPI, compiled with Ajv), then the properties puzzled relies on across the files:
// probes on /healthz and /readyz, non-root and read-only root, resources, a termination grace period
// above preStop + --drain-ms, and the Service, HorizontalPodAutoscaler and PodDisruptionBudget
// pointing at the Deployment's pods. The schemas check types, required fields and enums, not unknown
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
if (kustomization) {
  const listed = new Set(kustomization.resources ?? []);
  const others = objects.filter((o) => o.object !== kustomization).map((o) => basename(o.file));
  check(`kustomization.yaml lists every manifest (${[...listed].join(", ")})`, others.every((f) => listed.has(f)));
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
