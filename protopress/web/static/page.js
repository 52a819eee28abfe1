// What every page shares: element lookup and building, and faces with their size.
// No key in any URL: the session cookie (HttpOnly) admits every request.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

// A face with its size known before it loads, so nothing below it moves when it arrives.
function picture(image, alt, lazy = false) {
  const attrs = { src: image.src, alt, width: image.width, height: image.height };
  if (lazy) attrs.loading = "lazy";
  return el("img", attrs);
}
