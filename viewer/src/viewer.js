// SPDX-License-Identifier: Apache-2.0
// The replay viewer of `sinew run --html`: reads the run embedded in the page (a JSON script
// element with id "sinew-data"), builds the bodies' primitives with three.js, and plays the
// recorded frames: body poses, contacts with their force arrows, loop anchors. A time slider,
// play/pause, speed and an orbiting camera. The page's <pre id="sinew-status"> holds a JSON line
// for tests: the frame shown, how many images were drawn and how many distinct frames they
// showed, and how many pixels of the last image show a body.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';

const BODY_COLOURS = [0xd9822b, 0x3b8ed9, 0x4caf50, 0xc0504d, 0x8064a2, 0xf2c14e, 0x4bacc6];

function geometryOf(g, mesh, meshes) {
  const s = g.size;
  switch (g.type) {
    case 'trimesh': {
      // a visual mesh's own triangles (vertices already scaled)
      const t = meshes && meshes[g.meshIndex];
      if (!t || t.f.length < 3) return null;
      const geo = new THREE.BufferGeometry();
      geo.setAttribute('position', new THREE.Float32BufferAttribute(t.v, 3));
      geo.setIndex(t.f);
      geo.computeVertexNormals();
      return geo;
    }
    case 'box':
      return new THREE.BoxGeometry(s[0], s[1], s[2]);
    case 'sphere':
      return new THREE.SphereGeometry(s[0], 24, 16);
    case 'cylinder': {
      const c = new THREE.CylinderGeometry(s[0], s[0], s[1], 24);
      c.rotateX(Math.PI / 2); // three's cylinders run along y, URDF's along z
      return c;
    }
    case 'ellipsoid': {
      const e = new THREE.SphereGeometry(1, 24, 16);
      e.scale(s[0], s[1], s[2]);
      return e;
    }
    case 'capsule': {
      const c = new THREE.CapsuleGeometry(s[0], s[1], 8, 16);
      c.rotateX(Math.PI / 2);
      return c;
    }
    case 'mesh': {
      if (!mesh || mesh.length < 12) return null;
      const pts = [];
      for (let i = 0; i + 2 < mesh.length; i += 3) pts.push(new THREE.Vector3(mesh[i], mesh[i + 1], mesh[i + 2]));
      return new ConvexGeometry(pts);
    }
    default:
      return null;
  }
}

function matrixOf(pos, rot) {
  // rot: row-major 3 x 3, parent <- child
  const m = new THREE.Matrix4();
  m.set(rot[0], rot[1], rot[2], pos[0], rot[3], rot[4], rot[5], pos[1], rot[6], rot[7], rot[8], pos[2], 0, 0, 0, 1);
  return m;
}

function button(label, title) {
  const b = document.createElement('button');
  b.textContent = label;
  b.title = title;
  return b;
}

function start() {
  const data = JSON.parse(document.getElementById('sinew-data').textContent);
  const status = document.getElementById('sinew-status');
  const nbody = data.bodies.length;
  const nframe = data.t.length;

  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  const view = document.getElementById('sinew-view');
  view.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xeef2f6);
  const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
  camera.up.set(0, 0, 1);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 1.4);
  sun.position.set(3, -4, 6);
  scene.add(sun);

  // the ground: a grid on z = 0 when the run had one
  const extent = data.extent || 2;
  if (data.ground) {
    const size = Math.max(4, Math.ceil(extent * 4));
    const grid = new THREE.GridHelper(size, size * 4, 0x9aa5b1, 0xc9d1d9);
    grid.rotateX(Math.PI / 2);
    scene.add(grid);
    const plane = new THREE.Mesh(new THREE.PlaneGeometry(size, size), new THREE.MeshLambertMaterial({ color: 0xdde3ea }));
    plane.position.z = -0.0005;
    scene.add(plane);
  }

  // bodies: a group each, its geometries placed in the body frame
  // (a body with visual geometries shows them; one without shows its collision geometries)
  const groups = [];
  for (let b = 0; b < nbody; b++) {
    const group = new THREE.Group();
    group.matrixAutoUpdate = false;
    const colour = BODY_COLOURS[b % BODY_COLOURS.length];
    const showVisual = data.bodies[b].geoms.some((g) => g.visual);
    for (const g of data.bodies[b].geoms) {
      if (showVisual !== g.visual) continue;
      const geo = geometryOf(g, g.mesh, data.meshes);
      if (!geo) continue;
      const rgba = g.rgba || null;
      const mat = new THREE.MeshStandardMaterial({
        color: rgba ? new THREE.Color(rgba[0], rgba[1], rgba[2]) : colour,
        roughness: 0.6,
        metalness: 0.1,
      });
      const mesh = new THREE.Mesh(geo, mat);
      mesh.matrixAutoUpdate = false;
      mesh.matrix.copy(matrixOf(g.pos, g.rot));
      mesh.userData.body = true;
      group.add(mesh);
    }
    scene.add(group);
    groups.push(group);
  }

  // contacts: an arrow per contact along its force, pooled
  const arrows = [];
  const maxContacts = data.maxContacts || 0;
  for (let i = 0; i < maxContacts; i++) {
    const a = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 0.1, 0xe53935, 0.03, 0.02);
    a.visible = false;
    scene.add(a);
    arrows.push(a);
  }
  // loop anchors: body1's and body2's points
  const anchors = [];
  const nanchor = (data.nconstraint || 0) * 2;
  for (let i = 0; i < nanchor; i++) {
    const s = new THREE.Mesh(new THREE.SphereGeometry(0.008 * Math.max(1, extent / 2), 10, 8), new THREE.MeshBasicMaterial({ color: i % 2 ? 0x1e88e5 : 0xfdd835 }));
    scene.add(s);
    anchors.push(s);
  }

  // the camera looks at the bodies' box at the first frame
  const box = new THREE.Box3();
  for (let b = 0; b < nbody; b++) {
    const p = data.pose[0].slice(b * 7, b * 7 + 3);
    box.expandByPoint(new THREE.Vector3(p[0], p[1], p[2]));
  }
  const centre = box.getCenter(new THREE.Vector3());
  const radius = Math.max(0.3, box.getSize(new THREE.Vector3()).length() * 0.5, extent * 0.25);
  camera.position.set(centre.x + radius * 1.1, centre.y - radius * 2.3, centre.z + radius * 0.7);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.copy(centre);
  controls.update();

  // the controls
  const bar = document.getElementById('sinew-controls');
  const play = button('Pause', 'play or pause (space)');
  const slider = document.createElement('input');
  slider.type = 'range';
  slider.min = 0;
  slider.max = Math.max(0, nframe - 1);
  slider.value = 0;
  const speed = document.createElement('select');
  for (const s of [0.1, 0.25, 0.5, 1, 2, 4]) {
    const o = document.createElement('option');
    o.value = s;
    o.textContent = s + 'x';
    if (s === 1) o.selected = true;
    speed.appendChild(o);
  }
  const clock = document.createElement('span');
  clock.className = 'clock';
  const forces = document.createElement('label');
  const forcesBox = document.createElement('input');
  forcesBox.type = 'checkbox';
  forcesBox.checked = true;
  forces.append(forcesBox, ' contacts');
  // the camera follows the first body (a floating base walks out of view otherwise)
  const follow = document.createElement('label');
  const followBox = document.createElement('input');
  followBox.type = 'checkbox';
  followBox.checked = nbody > 1;
  follow.append(followBox, ' follow');
  bar.append(play, slider, clock, speed, forces, follow);
  const followAt = new THREE.Vector3(data.pose[0][7] || 0, data.pose[0][8] || 0, 0);

  let playing = true;
  let frame = 0;
  let simTime = 0;
  let drawn = 0;
  let last = null;
  const shown = new Set(); // the distinct frames drawn so far
  let pixels = 0;
  play.onclick = () => {
    playing = !playing;
    play.textContent = playing ? 'Pause' : 'Play';
  };
  window.addEventListener('keydown', (e) => {
    if (e.code === 'Space') {
      play.onclick();
      e.preventDefault();
    }
  });
  slider.oninput = () => {
    frame = Number(slider.value);
    simTime = data.t[frame] - data.t[0];
  };

  const forceScale = data.forceScale || 1;
  const tmpPos = new THREE.Vector3();
  const tmpQuat = new THREE.Quaternion();
  const ONE = new THREE.Vector3(1, 1, 1);
  const up = new THREE.Vector3();
  function showFrame(k) {
    const pose = data.pose[k];
    for (let b = 0; b < nbody; b++) {
      // position, then the quaternion w x y z
      const o = b * 7;
      tmpPos.set(pose[o], pose[o + 1], pose[o + 2]);
      tmpQuat.set(pose[o + 4], pose[o + 5], pose[o + 6], pose[o + 3]);
      groups[b].matrix.compose(tmpPos, tmpQuat, ONE);
      groups[b].matrixWorldNeedsUpdate = true;
    }
    const cs = (data.contacts && data.contacts[k]) || [];
    for (let i = 0; i < arrows.length; i++) {
      const a = arrows[i];
      if (!forcesBox.checked || 6 * i >= cs.length) {
        a.visible = false;
        continue;
      }
      const p = cs.slice(6 * i, 6 * i + 3);
      up.set(cs[6 * i + 3], cs[6 * i + 4], cs[6 * i + 5]);
      const len = up.length() * forceScale;
      if (!(len > 1e-6)) {
        a.visible = false;
        continue;
      }
      a.position.set(p[0], p[1], p[2]);
      a.setDirection(up.normalize());
      a.setLength(len, Math.min(0.04, len * 0.3), Math.min(0.025, len * 0.2));
      a.visible = true;
    }
    const an = (data.anchors && data.anchors[k]) || [];
    for (let i = 0; i < anchors.length; i++) anchors[i].position.set(an[3 * i], an[3 * i + 1], an[3 * i + 2]);
    slider.value = k;
    clock.textContent = 't = ' + data.t[k].toFixed(3) + ' s';
    if (followBox.checked && nbody > 1) {
      // the first body's horizontal move since the last frame shown moves the camera too
      const dx = pose[7] - followAt.x;
      const dy = pose[8] - followAt.y;
      camera.position.x += dx;
      camera.position.y += dy;
      controls.target.x += dx;
      controls.target.y += dy;
    }
    followAt.set(pose[7], pose[8], 0);
  }

  // pixels of the last drawn frame that show a body (neither the background nor the ground)
  function bodyPixels() {
    const gl = renderer.getContext();
    const w = gl.drawingBufferWidth;
    const h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    let n = 0;
    for (let i = 0; i < px.length; i += 4) {
      const r = px[i];
      const g = px[i + 1];
      const b = px[i + 2];
      const grey = Math.abs(r - g) < 14 && Math.abs(g - b) < 22 && Math.abs(r - b) < 30;
      if (!grey) n++;
    }
    return n;
  }

  function resize() {
    const w = view.clientWidth || 800;
    const h = view.clientHeight || 600;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  }
  window.addEventListener('resize', resize);
  resize();

  function tick(now) {
    if (last === null) last = now;
    const dt = Math.min(0.1, (now - last) / 1000);
    last = now;
    if (playing && nframe > 1) {
      simTime += dt * Number(speed.value);
      const span = data.t[nframe - 1] - data.t[0];
      if (simTime > span) simTime = 0;
      // the last frame at or before the time shown
      let k = frame;
      if (data.t[k] - data.t[0] > simTime) k = 0;
      while (k + 1 < nframe && data.t[k + 1] - data.t[0] <= simTime) k++;
      frame = k;
    }
    showFrame(frame);
    shown.add(frame);
    controls.update();
    renderer.render(scene, camera);
    drawn++;
    // (the pixel count reads the whole image back: on the third image and every tenth)
    if (drawn === 3 || drawn % 10 === 0) pixels = bodyPixels();
    status.textContent = JSON.stringify({ ready: true, frame: frame, frames: nframe, drawn: drawn, distinct: shown.size, bodyPixels: pixels });
    requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
